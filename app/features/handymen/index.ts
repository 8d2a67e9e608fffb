/** What other features may use of this feature in the browser (ESLint enforces it). */
export { YourHandyman } from "./components/your-handyman";
export { DedicatedHandymanForm } from "./components/dedicated-handyman-form";
export type { HandymanCard } from "./types";
