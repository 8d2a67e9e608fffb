/** What other features may use of this feature in the browser (ESLint enforces it). */
export { MemberReferrals } from "./components/member-referrals";
export { ReferSpecialist, type SpecialistOption } from "./components/refer-specialist";
export type { MemberReferralView } from "./types";
export { StaffReferSpecialist } from "./components/staff-refer-specialist";
