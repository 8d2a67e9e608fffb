/** What other features may use of this feature on the server (ESLint enforces it). */
export {
  MembershipRejectedError,
  VisitSpendRefusedError,
  activeMembershipsOf,
  membershipCounters,
  moveVisitMinutes,
  releaseVisitMinutes,
  reserveVisitMinutes,
  settleVisitMinutes,
  visitHold,
  visitSpend,
} from "./membership.server";
export type { ActiveMembership, MembershipCounters, SettledVisit } from "./membership.server";
