import { z } from "zod";
import {
  isUsPhone,
  MESSAGE_KINDS,
  MOBILE_MESSAGE,
  TEXTS_NEED_MOBILE_MESSAGE,
  type NotificationPrefs,
} from "~/lib/message-kinds";

/*
 * 'Notifications' in the profile: the mobile number, 'Text me about my visits', and e-mail and
 * text per kind of message (a checkbox posts "on" when ticked and nothing when not).
 */

const box = z.literal("on").optional();

export const notificationsSchema = z
  .object({
    intent: z.literal("save-notifications"),
    mobilePhone: z
      .string()
      .trim()
      .optional()
      .transform((value) => value || undefined)
      .refine((value) => value === undefined || isUsPhone(value), MOBILE_MESSAGE),
    textMe: box,
    ...Object.fromEntries(
      MESSAGE_KINDS.flatMap((kind) => [
        [`${kind}-email`, box],
        [`${kind}-text`, box],
      ]),
    ),
  })
  .refine((value) => !value.textMe || value.mobilePhone, {
    message: TEXTS_NEED_MOBILE_MESSAGE,
    path: ["mobilePhone"],
  });

export type NotificationsForm = z.infer<typeof notificationsSchema>;

/** The choices per kind from the posted form. */
export function prefsFromForm(form: Record<string, unknown>): NotificationPrefs {
  return Object.fromEntries(
    MESSAGE_KINDS.map((kind) => [
      kind,
      { email: form[`${kind}-email`] === "on", text: form[`${kind}-text`] === "on" },
    ]),
  );
}
