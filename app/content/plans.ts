/**
 * The three plans of docs/product.md section 9: the one place their terms live. The pricing section,
 * the membership pages and the accounting all read these; a membership copies the terms it
 * starts with (docs/design.md decision 14), so changing a price here never rewrites the past.
 */
export type PlanId = "essential" | "complete" | "total";

export type PlanTerms = {
  id: PlanId;
  name: string;
  /** Price per month in cents. */
  monthlyPriceCents: number;
  /** The year's hours, in minutes (hours are never floats). */
  minutesPerYear: number;
  visitsPerYear: number;
};

/** A membership plan card (docs/product.md section 3: static display data, never fetched). */
export type MembershipPlan = PlanTerms & {
  /** Display strings, derived from the terms above. */
  pricePerMonth: number;
  hoursPerYear: string;
  description: string;
  badge: "Most Popular" | "Best Value" | null;
  buttonText: string;
};

function plan(
  terms: PlanTerms,
  card: Pick<MembershipPlan, "description" | "badge" | "buttonText">,
): MembershipPlan {
  return {
    ...terms,
    pricePerMonth: terms.monthlyPriceCents / 100,
    // 1050 minutes -> "17.5", 2520 -> "42"
    hoursPerYear: String(terms.minutesPerYear / 60),
    ...card,
  };
}

/** The three plans of docs/product.md section 9. */
export const PLANS: MembershipPlan[] = [
  plan(
    {
      id: "essential",
      name: "Essential Home Care",
      monthlyPriceCents: 17_500,
      minutesPerYear: 17.5 * 60,
      visitsPerYear: 10,
    },
    {
      description:
        "Steady upkeep for newer or smaller homes: seasonal maintenance, a few fixes and the odd upgrade, handled before they pile up.",
      badge: null,
      buttonText: "Get Started",
    },
  ),
  plan(
    {
      id: "complete",
      name: "Complete Home Care",
      monthlyPriceCents: 29_500,
      minutesPerYear: 42 * 60,
      visitsPerYear: 24,
    },
    {
      description:
        "About 3.5 hours a month for the repairs, upgrades and upkeep of a busy family home. The plan most members choose.",
      badge: "Most Popular",
      buttonText: "Get Started",
    },
  ),
  plan(
    {
      id: "total",
      name: "Total Home",
      monthlyPriceCents: 55_000,
      minutesPerYear: 84 * 60,
      visitsPerYear: 48,
    },
    {
      description:
        "A visit almost every week for larger homes, older homes and long to-do lists, with room for bigger projects.",
      badge: "Best Value",
      buttonText: "Get Started",
    },
  ),
];

export const PLAN_IDS = ["essential", "complete", "total"] as const satisfies readonly PlanId[];

export function planById(id: PlanId): MembershipPlan {
  const found = PLANS.find((p) => p.id === id);
  if (!found) throw new Error(`Unknown plan ${id}`);
  return found;
}

/** Visit blocks (docs/product.md section 9), in minutes. */
export const VISIT_BLOCKS = [105, 210] as const;
export type VisitBlockMinutes = (typeof VISIT_BLOCKS)[number];
/** An extra visit in a month: 1 hour 45 minutes for $150, charged, not taken from the hours. */
export const EXTRA_VISIT = { minutes: 105, priceCents: 15_000 } as const;
/** The flat shopping fee per visit that needs parts, not per part. */
export const SHOPPING_FEE_CENTS = 1_000;
/** Parts above this cost wait for the member's approval. */
export const PARTS_APPROVAL_ABOVE_CENTS = 10_000;
/** Time worked on a visit is recorded in steps of this many minutes. */
export const WORK_STEP_MINUTES = 15;

/** What every membership includes (docs/product.md section 9, "Membership inclusions"). */
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

/** The terms printed under the plan cards (docs/product.md section 9). */
export const PLAN_TERMS = [
  "A 12-month membership, billed monthly or upfront for the year. No hourly billing.",
  "Visits come in 1 hour 45 minute or 3.5 hour blocks; the last 10 minutes are for clean-up and documenting the work.",
  "Need one more visit in a month? An extra 1 hour 45 minute visit is $150.",
  "Parts: a flat $10 shopping fee per visit that needs parts (not per part); anything over $100 waits for your approval.",
];
