/** A question of the home page FAQ, with its answer as paragraphs. */
export type FaqItem = { id: string; question: string; answer: string[] };

/**
 * The seven FAQ topics of docs/product.md section 2. The guarantee comes from the business settings
 * (docs/design.md decision 8), so the FAQ never contradicts the guarantee shown elsewhere.
 */
export function faqItems(settings: { guaranteeDays: number; name: string }): FaqItem[] {
  const days = settings.guaranteeDays;
  return [
    {
      id: "why-membership",
      question: "Why a membership instead of calling a handyman when something breaks?",
      answer: [
        "Because most home problems are cheaper to prevent than to fix. With a membership you have one dedicated, vetted handyman who learns your home, works through a proactive maintenance plan and takes care of the to-do list before it grows.",
        "You pay one flat monthly price with no hourly billing, no minimums per job and no chasing quotes. When something does break, you book a visit in the app instead of starting a search.",
      ],
    },
    {
      id: "covered",
      question: "What is covered?",
      answer: [
        "Installation, assembly, carpentry, patch and paint, drywall, minor electrical and plumbing, light fixtures, artwork hanging and toilet replacement, plus upkeep such as gutter cleaning and seasonal maintenance.",
        "Visits use your plan's hours, so you decide how to spend them: repairs one week, an upgrade the next.",
      ],
    },
    {
      id: "not-covered",
      question: "What is not covered?",
      answer: [
        "Ongoing pool care, ongoing landscaping and house cleaning are not part of the membership. One-off outdoor jobs such as re-securing a fence or cleaning gutters are covered.",
      ],
    },
    {
      id: "specialists",
      question: "What happens when a job needs a specialist?",
      answer: [
        "Some work needs a licensed specialist, for example when a new water or power source is needed. We refer you to a trusted specialist from our partner network and stay involved so the job fits your home's plan.",
      ],
    },
    {
      id: "joining-billing",
      question: "How do joining and billing work?",
      answer: [
        "It starts with a free 45-minute walk-thru: no obligation and no credit card. If you decide to join, your billing period begins when you add your payment details, at any time after the walk-thru.",
        "A membership runs for 12 months, billed monthly or upfront for the year. On monthly billing each month's hours are added as it is paid, and you can book a visit against the hours paid by its date plus one month ahead, so you can book in your first week. When you book your first visit you can choose up to 3 tasks, and within your first 60 days we create your maintenance plan and document your appliances.",
      ],
    },
    {
      id: "guarantee-cancellation",
      question: "What is your guarantee, and can I cancel?",
      answer: [
        `Your membership comes with our ${days}-day money-back satisfaction guarantee: if you are not satisfied within your first ${days} days as a member, you get a full refund. Those first ${days} days come once for each customer and each home, so a membership started again later does not bring them back.`,
        "After that you can still cancel at any time without penalty, and we refund the hours you have not used.",
      ],
    },
    {
      id: "parts",
      question: "How do parts and the shopping fee work?",
      answer: [
        "Your handyman can source the parts for you. There is a flat $10 shopping fee per visit that needs parts, not per part, and you pay for the parts themselves.",
        "Any part over $100 needs your approval before we buy it, so there are never surprises on your bill.",
      ],
    },
  ];
}
