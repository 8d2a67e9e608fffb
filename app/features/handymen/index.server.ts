/** What other features may use of this feature on the server (ESLint enforces it). */
export { assignDedicatedHandyman, dedicatedHandymanOf, handymanCard } from "./dedicated.server";
