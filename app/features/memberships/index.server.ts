/** What other features may use of this feature on the server (ESLint enforces it). */
export {
  VisitSpendRefusedError,
  activeMembershipsOf,
  membershipCounters,
  moveVisitMinutes,
  releaseVisitMinutes,
  reserveVisitMinutes,
  visitSpend,
} from "./membership.server";
export type { ActiveMembership, MembershipCounters } from "./membership.server";
