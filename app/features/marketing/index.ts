/** What other features may use of this feature (ESLint enforces it); server code: ./index.server. */
export { CARD } from "./components/section";
