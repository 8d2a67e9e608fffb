/** What other features may use of this feature on the server (ESLint enforces it). */
export { consentToReferral, referralsOf } from "./referrals.server";
