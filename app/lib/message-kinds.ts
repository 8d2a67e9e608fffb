/*
 * The kinds of message a customer chooses e-mail and text for ('Notifications' in the profile).
 * Every kind is on for both channels until the person turns it off; texts also need their
 * consent ('Text me about my visits').
 */

export const MESSAGE_KINDS = ["reminders", "visit-changes", "on-my-way", "billing"] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
export type NotificationPrefs = Partial<Record<MessageKind, { email?: boolean; text?: boolean }>>;

export const MESSAGE_KIND_LABELS: Record<MessageKind, string> = {
  reminders: "Visit reminders (the day before)",
  "visit-changes": "Visits booked, moved or canceled",
  "on-my-way": "Your handyman is on the way",
  billing: "Payments and billing",
};

export function wants(
  prefs: NotificationPrefs | null | undefined,
  kind: MessageKind,
  channel: "email" | "text",
) {
  return prefs?.[kind]?.[channel] ?? true;
}

/** A US mobile number as typed: ten digits (a leading 1 allowed), any punctuation. */
export function isUsPhone(value: string) {
  if (!/^[\d\s+().-]{10,25}$/.test(value)) return false;
  const digits = value.replace(/\D/g, "");
  const national = digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
  return national.length === 10 && /^[2-9]\d{2}[2-9]/.test(national);
}

export const MOBILE_MESSAGE = "Please enter a 10-digit US mobile number";
export const TEXTS_NEED_MOBILE_MESSAGE = "Enter your mobile number to get texts";
