/** What other features may use of this feature on the server (ESLint enforces it). */
export {
  countMatchingRequests,
  decodeCursor,
  encodeCursor,
  getRequestDetail,
  listRequests,
  requestCounters,
} from "./staff-queries.server";
export type { RequestCounters, RequestCursor, RequestDetail } from "./staff-queries.server";
export { addPlanRequest, addTaskRequests, openRequestsOf } from "./service-requests.server";
export { setRequestStatus } from "./request-status.server";
