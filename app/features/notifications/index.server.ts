/** What other features may use of this feature on the server (ESLint enforces it). */
export {
  alertOffice,
  customerName,
  siteUrl,
  textCustomer,
  wantsEmail,
} from "./notifications.server";
