/** What other features may use of this feature in the browser and on the server. */
export { NotificationsCard, type NotificationSettings } from "./components/notifications-card";
export { notificationsSchema, prefsFromForm } from "./schema";
export { MessagesList } from "./components/messages-list";
