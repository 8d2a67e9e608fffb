/** What the browser side of other features and routes may use (ESLint enforces it). */
export { HomeRecord, TodayHomeRecord } from "./components/home-record";
export { PlansDueList } from "./components/plans-due-list";
export type { HomeRecordView } from "./types";
