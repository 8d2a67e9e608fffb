/** A membership plan card (SPEC.md section 3: static display data, never fetched). */
export type MembershipPlan = {
  name: string;
  pricePerMonth: number;
  hoursPerYear: string;
  visitsPerYear: string;
  description: string;
  badge: "Most Popular" | "Best Value" | null;
  buttonText: string;
};

/** The three plans of SPEC.md section 9. Every visit is a 1 hour 45 minute block. */
export const PLANS: MembershipPlan[] = [
  {
    name: "Essential Home Care",
    pricePerMonth: 175,
    hoursPerYear: "17.5",
    visitsPerYear: "10",
    description:
      "Steady upkeep for newer or smaller homes: seasonal maintenance, a few fixes and the odd upgrade, handled before they pile up.",
    badge: null,
    buttonText: "Get Started",
  },
  {
    name: "Complete Home Care",
    pricePerMonth: 295,
    hoursPerYear: "42",
    visitsPerYear: "24",
    description:
      "About 3.5 hours a month for the repairs, upgrades and upkeep of a busy family home. The plan most members choose.",
    badge: "Most Popular",
    buttonText: "Get Started",
  },
  {
    name: "Total Home",
    pricePerMonth: 550,
    hoursPerYear: "84",
    visitsPerYear: "48",
    description:
      "A visit almost every week for larger homes, older homes and long to-do lists, with room for bigger projects.",
    badge: "Best Value",
    buttonText: "Get Started",
  },
];

/** What every membership includes (SPEC.md section 9, "Membership inclusions"). */
export const MEMBERSHIP_INCLUSIONS = [
  "One dedicated, vetted handyman who gets to know your home",
  "Flexible visits that use your hours when you need them",
  "Visits for repairs, upgrades and upkeep such as gutter cleaning",
  "A proactive maintenance plan tailored to your home",
  "An app to book visits, add tasks and track progress",
  "Parts sourcing for a small fee",
  "Referrals to trusted specialists from our partner network",
  "Our money-back satisfaction guarantee",
];

/** The terms printed under the plan cards (SPEC.md section 9). */
export const PLAN_TERMS = [
  "Annual membership, billed upfront for 12 months. No hourly billing.",
  "Visits come in 1 hour 45 minute or 3.5 hour blocks; the last 10 minutes are for clean-up and documenting the work.",
  "Need one more visit in a month? An extra 1 hour 45 minute visit is $150.",
  "Parts: a flat $10 shopping fee per visit that needs parts (not per part); anything over $100 waits for your approval.",
];
