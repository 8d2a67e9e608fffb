import type { ReferralStatus } from "~/db/specialist-trade";

/** A referral as the member's dashboard shows it. */
export type MemberReferralView = {
  id: string;
  status: ReferralStatus;
  statusLabel: string;
  reason: string;
  createdAt: string;
  consentAt: string | null;
  photoCount: number;
  /** What the specialist pays the business (or that he pays nothing), in words. */
  feeLine: string;
  specialist: {
    company: string;
    trade: string;
    contactName: string | null;
    phone: string | null;
    email: string | null;
    licenseNumber: string | null;
    referralFeeCents: number | null;
  };
};
