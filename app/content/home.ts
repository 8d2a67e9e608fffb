/**
 * The home page's own prose: the hero, the section headings and introductions, the guarantee.
 * It reaches the page as loader data like the rest of app/content, so the prerendered HTML
 * carries it and the browser bundle does not (docs/decisions/008).
 */
export function homeCopy(settings: { name: string; guaranteeDays: number }) {
  const days = settings.guaranteeDays;
  return {
    hero: {
      image: "home-hero",
      eyebrow: "Flat-rate handyman membership · Metro Atlanta",
      headline: "Your Dedicated Handyman, One Flat Monthly Price",
      intro:
        "One vetted handyman who knows your home, a proactive maintenance plan, and an app to book visits and track every task. No hourly billing, no chasing quotes.",
      claims: [
        "Licensed & insured",
        `${days}-day money-back guarantee`,
        "Same-day & next-day service",
      ],
    },
    services: {
      image: "home-services",
      title: "Everything Your Home Needs",
      intro:
        "Your membership hours cover maintenance, repairs and upgrades: you decide how to use them.",
    },
    howItWorks: {
      image: "home-how-it-works",
      title: "How It Works",
      intro: "From a free walk-thru to your first visit in four simple steps.",
    },
    pricing: {
      title: "Simple, Transparent Pricing",
      intro: "Pick the plan that fits your home. Every plan includes the same dedicated service.",
    },
    guarantee: {
      title: "100% Satisfaction Guarantee",
      intro: `If you are not happy within your first ${days} days, we refund your membership in full. After that, you can cancel at any time without penalty and get a refund for the hours you have not used.`,
    },
    about: {
      image: "home-about",
      title: "Proudly Serving Metro Atlanta",
      intro: `${settings.name} is a local, licensed and insured team of vetted handymen. We serve homeowners and families across the metro area, with visits Mon-Fri 8AM-6PM.`,
    },
    testimonials: { title: "What Our Members Say" },
    faq: {
      title: "Frequently Asked Questions",
      intro: "Still have questions? Let's talk about your home.",
    },
    contact: {
      image: "home-contact",
      intro: "Tell us a little about you and we will schedule your free consultation.",
    },
  } as const;
}
