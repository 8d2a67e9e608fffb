/** What other features may use of this feature on the server (ESLint enforces it). */
export { LEAD_ADDRESS_LIMIT } from "./submit.server";
export {
  customerOrigin,
  leadBecameMember,
  leadForEntry,
  leadOfCustomer,
  leadOfferSent,
  leadWalkThruBooked,
  leadWalkThruCanceled,
  linkLeadsToAccount,
  listLeads,
  parseLeadsQuery,
  type LeadListItem,
  type LeadsQuery,
} from "./people.server";
export { leadFunnel, type FunnelMonth } from "./funnel.server";
