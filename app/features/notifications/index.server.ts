/** What other features may use of this feature on the server (ESLint enforces it). */
export {
  alertOffice,
  readPersonName,
  messagesFor,
  notificationSettings,
  saveNotifications,
  siteUrl,
  textCustomer,
  wantsEmail,
} from "./notifications.server";
export {
  consentReplyText,
  homeMonthText,
  officeAlertText,
  onMyWayText,
  paymentFailedText,
  reminderText,
  textCodeText,
  visitChangeText,
} from "./texts.server";
