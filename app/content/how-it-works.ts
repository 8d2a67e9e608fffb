/** A numbered step of "How It Works" (docs/product.md section 3, "Process step"). */
export type ProcessStep = { step: number; title: string; description: string };

/** The membership lifecycle of docs/product.md section 1, as visitors read it. */
export const HOW_IT_WORKS: ProcessStep[] = [
  {
    step: 1,
    title: "Book a Free Walk-Thru",
    description:
      "A free 45-minute visit to your home with no obligation and no credit card. We walk the house together and talk through your to-do list.",
  },
  {
    step: 2,
    title: "Join and Get Your Plan",
    description:
      "Pick the plan that fits. Within your first 60 days we build a proactive maintenance plan of more than 10 tasks and document your appliances.",
  },
  {
    step: 3,
    title: "Add Your Payment Details",
    description:
      "Your billing period begins when you add payment details, whenever you are ready after the walk-thru. Nothing is charged before that.",
  },
  {
    step: 4,
    title: "Book Your First Visit",
    description:
      "Choose up to 3 tasks for your first visit in the app, then keep adding to your to-do list and book visits from the Schedule tab.",
  },
];
