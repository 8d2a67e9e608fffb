/** What routes and other features may use of this feature on the server (ESLint enforces it). */
export { customerHomeId, homeAccess, type HomeAccess } from "./access.server";
export { homeAction, type HomeAnswer } from "./actions.server";
export { homeRecord, homeRecordsFor, memberHomeRecord } from "./record.server";
export { plansDue, plansDuePage, type PlanDue } from "./plans-due.server";
export { drawPlan } from "./plan.server";
export { openDuePlanRequests } from "./plan-requests.server";
export {
  firstBusinessDayOfMonth,
  sendHomeMonthNotices,
  startHomeMonthNotices,
} from "./month-notices.server";
export { applianceLabelPhoto, labelFolder, readLabelPhoto } from "./label.server";
