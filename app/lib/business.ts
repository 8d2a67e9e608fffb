/**
 * The business identity: one source for name, phone, e-mail, hours and the guarantee,
 * so the site never contradicts itself (docs/design.md decision 8 and 11).
 * Server code builds it from the environment (business.server.ts); the browser receives it
 * through the root loader and reads it with useBusiness().
 */
import { useRouteLoaderData } from "react-router";
import { phoneHref } from "./phone";
export type Business = {
  name: string;
  phone: string;
  /** E.164-ish digits for tel: links, e.g. +14045550142 */
  phoneHref: string;
  email: string;
  hours: string;
  guaranteeDays: number;
  /**
   * Extra visits ($150, beyond the allowances) a member may book online in one calendar month;
   * past it they call, and staff book more (ADR 042).
   */
  selfBookedExtraVisitsPerMonth: number;
  /**
   * Days within which a canceled membership's refund that cannot go back to a card is paid by
   * check (ADR 058): the cancel dialog, its e-mail and the statement say it.
   */
  refundCheckDays: number;
  /**
   * The extra fee for a second handyman on a visit (SECOND_HANDYMAN_FEE, ADR 091), in cents:
   * every form, visit, e-mail, statement and the pricing terms say this one amount.
   */
  secondHandymanFeeCents: number;
  timeZone: string;
  area: string;
};

export const DEFAULT_BUSINESS: Business = {
  name: "Peachtree Handyman Club",
  phone: "(404) 555-0142",
  phoneHref: "tel:+14045550142",
  email: "hello@peachtree-handyman.example",
  hours: "Mon-Fri 8AM-6PM",
  guaranteeDays: 60,
  selfBookedExtraVisitsPerMonth: 4,
  refundCheckDays: 10,
  secondHandymanFeeCents: 9_500,
  timeZone: "America/New_York",
  area: "Metro Atlanta",
};

export function makeBusiness(
  overrides: Partial<Pick<Business, "name" | "phone" | "email" | "secondHandymanFeeCents">>,
) {
  const phone = overrides.phone ?? DEFAULT_BUSINESS.phone;
  return {
    ...DEFAULT_BUSINESS,
    name: overrides.name ?? DEFAULT_BUSINESS.name,
    email: overrides.email ?? DEFAULT_BUSINESS.email,
    secondHandymanFeeCents:
      overrides.secondHandymanFeeCents ?? DEFAULT_BUSINESS.secondHandymanFeeCents,
    phone,
    phoneHref: phoneHref(phone),
  } satisfies Business;
}

/** What the root route's loader returns (app/root.tsx declares its loader with this type). */
export type RootData = { business: Business };

/** The business settings, from the root loader (falls back to the defaults in error screens). */
export function useBusiness(): Business {
  const data = useRouteLoaderData("root") as RootData | undefined;
  return data?.business ?? DEFAULT_BUSINESS;
}
