/** What other features may use of this feature on the server (ESLint enforces it). */
export { LEAD_ADDRESS_LIMIT } from "./submit.server";
export {
  customerOrigin,
  leadBecameMember,
  leadForEntry,
  leadFunnel,
  leadOfferSent,
  linkLeadsToAccount,
  type FunnelMonth,
} from "./people.server";
