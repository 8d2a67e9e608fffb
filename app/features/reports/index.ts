/** What other features and the routes may use of this feature (ESLint enforces it). */
export { Chart, CHART_COLORS } from "./components/chart";
export { PERIOD_CHOICES, periodFrom, periodQuery, monthLabel } from "./period";
export type { Period, PeriodChoice } from "./period";
export { reportTables, toCsv, percent, share } from "./tables";
export type { ReportTable } from "./tables";
