import { parseWithZod } from "@conform-to/zod/v4";
import { data, href, redirect } from "react-router";
import { getHome, saveHome, updateProfile } from "./profile.server";
import {
  homeSchema,
  passwordConfirmSchema,
  profileSchema,
  textCodeDigits,
  totpCodeSchema,
} from "./schema";
import { cookiesOf } from "./sign-in.server";
import { confirmEnrolment, newBackupCodes, startEnrolment, turnOff } from "./two-factor.server";
import { answer, type AnswerContext } from "~/lib/form-answer.server";
import { FORM_OUT_OF_DATE, isActionKey } from "~/lib/action-keys.server";
import { codeMobile } from "~/lib/mobile-number.server";
import { formatPhone } from "~/lib/phone";
import { CODE_WRONG, CODES_PAUSED, NOT_A_MOBILE } from "./text-code-sign-in.server";
import {
  checkTextCode,
  markMobileVerified,
  mobileStatus,
  requestTextCode,
} from "./text-codes.server";
import { auth } from "~/lib/auth.server";
import { logger } from "~/lib/logger.server";
import { getSessionUser } from "~/lib/session.server";
import { notificationSettings, saveNotifications } from "~/features/notifications/index.server";
import { notificationsSchema, prefsFromForm } from "~/features/notifications";

/*
 * The signed-in person's own account (/account), for the profile menu and Profile Settings:
 * reading the home address, and the intents posted there (profile, home, two-factor,
 * sign-out). Every call checks the session itself and only ever touches the caller's own rows.
 */

/** The caller's home address; 401 without a session. */
export async function readOwnHome(request: Request) {
  const user = await getSessionUser(request);
  if (!user) throw data({ message: "Not authenticated" }, { status: 401 });
  const [home, notifications, mobile] = await Promise.all([
    getHome(user.id),
    user.isEmployee ? null : notificationSettings(user.id),
    mobileStatus(user.id),
  ]);
  return { home, notifications, mobile };
}

/** A refusal: its status for a plain form post or an API client, 200 for the page's script. */
function failed(
  context: AnswerContext,
  intent: string,
  message: string,
  status = 400,
  extra: object = {},
) {
  return answer({ ok: false as const, intent, message, ...extra }, context, { status });
}

/** One intent posted to /account: `intent` names it. */
export async function answerAccountIntent(
  request: Request,
  context: AnswerContext & { clientAddress: string },
) {
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const withJavaScript = formData.get("js") === "1";

  if (intent === "sign-out") return signOut(request, withJavaScript, context);

  const user = await getSessionUser(request);
  if (!user) return failed(context, intent, "Not authenticated", 401);

  try {
    switch (intent) {
      case "update-profile": {
        const submission = parseWithZod(formData, { schema: profileSchema });
        if (submission.status !== "success")
          return failed(context, intent, "Failed to update profile", 400, {
            result: submission.reply(),
          });
        await updateProfile(user.id, submission.value);
        return { ok: true as const, intent, message: "Profile updated successfully" };
      }
      case "save-home": {
        const submission = parseWithZod(formData, { schema: homeSchema });
        if (submission.status !== "success") {
          const existing = await getHome(user.id);
          return failed(
            context,
            intent,
            existing ? "Failed to update home address" : "Failed to create home address",
            400,
            { result: submission.reply() },
          );
        }
        const outcome = await saveHome(user.id, submission.value);
        return {
          ok: true as const,
          intent,
          message:
            outcome === "created"
              ? "Home address created successfully"
              : "Home address updated successfully",
          home: await getHome(user.id),
        };
      }
      case "save-notifications": {
        if (user.isEmployee) return failed(context, intent, "Unknown request");
        const submission = parseWithZod(formData, { schema: notificationsSchema });
        if (submission.status !== "success")
          return failed(context, intent, "Failed to save notifications", 400, {
            result: submission.reply(),
          });
        await saveNotifications(user.id, {
          mobilePhone: submission.value.mobilePhone ?? null,
          textMe: submission.value.textMe === "on",
          prefs: prefsFromForm(submission.value),
        });
        return {
          ok: true as const,
          intent,
          message: "Notifications saved",
          notifications: await notificationSettings(user.id),
        };
      }
      case "send-mobile-code":
        return sendMobileCode(context, user.id, formData.get("key"));
      case "verify-mobile": {
        const code = textCodeDigits.safeParse(formData.get("code") ?? "");
        if (!code.success) return failed(context, intent, code.error.issues[0].message);
        return verifyMobile(context, user.id, code.data);
      }
      case "two-factor-enable": {
        const submission = parseWithZod(formData, { schema: passwordConfirmSchema });
        if (submission.status !== "success")
          return failed(context, intent, "Please enter your password");
        const enrolment = await startEnrolment(request, submission.value.password);
        if (!enrolment.ok) return failed(context, intent, enrolment.message, enrolment.status);
        const { ok: _ok, ...details } = enrolment;
        return { ok: true as const, intent, message: "", enrolment: details };
      }
      case "two-factor-verify": {
        const code = totpCodeSchema.safeParse(formData.get("code") ?? "");
        if (!code.success) return failed(context, intent, code.error.issues[0].message);
        const result = await confirmEnrolment(request, code.data);
        if (!result.ok) return failed(context, intent, result.message, result.status);
        return data(
          { ok: true as const, intent, message: "Two-factor authentication is on" },
          { headers: result.headers },
        );
      }
      case "two-factor-disable": {
        const submission = parseWithZod(formData, { schema: passwordConfirmSchema });
        if (submission.status !== "success")
          return failed(context, intent, "Please enter your password");
        const result = await turnOff(request, submission.value.password);
        if (!result.ok) return failed(context, intent, result.message, result.status);
        return data(
          { ok: true as const, intent, message: "Two-factor authentication is off" },
          { headers: result.headers },
        );
      }
      case "two-factor-backup-codes": {
        const submission = parseWithZod(formData, { schema: passwordConfirmSchema });
        if (submission.status !== "success")
          return failed(context, intent, "Please enter your password");
        const result = await newBackupCodes(request, submission.value.password);
        if (!result.ok) return failed(context, intent, result.message, result.status);
        return {
          ok: true as const,
          intent,
          message: "New backup codes created",
          backupCodes: result.backupCodes,
        };
      }
      default:
        return failed(context, intent, "Unknown request");
    }
  } catch (error) {
    logger.error({ err: (error as Error).message, intent }, "account action failed");
    const messages: Record<string, string> = {
      "update-profile": "Failed to update profile",
      "save-home": "Failed to update home address",
    };
    return failed(
      context,
      intent,
      messages[intent] ?? "Something went wrong. Please try again.",
      500,
    );
  }
}

/** 'Verify' in Profile Settings: a code to the caller's own mobile (ADR 086). */
async function sendMobileCode(
  context: AnswerContext & { clientAddress: string },
  userId: string,
  key: unknown,
) {
  const intent = "send-mobile-code";
  if (!isActionKey(key)) return failed(context, intent, FORM_OUT_OF_DATE);
  const { phone: stored } = await mobileStatus(userId);
  const phone = codeMobile(stored);
  if (!phone)
    return failed(context, intent, stored ? NOT_A_MOBILE : "Add your mobile number first");
  const outcome = await requestTextCode({
    purpose: "verify",
    phone,
    userId,
    clientAddress: context.clientAddress,
    key,
  });
  if (outcome.status === "limited")
    return failed(
      context,
      intent,
      `Please wait ${outcome.minutes} minutes before asking for another code.`,
      429,
    );
  if (outcome.status === "paused") return failed(context, intent, CODES_PAUSED.description!, 503);
  return {
    ok: true as const,
    intent,
    message: `We texted a code to ${formatPhone(phone)}. It works for 5 minutes.`,
  };
}

async function verifyMobile(context: AnswerContext, userId: string, code: string) {
  const intent = "verify-mobile";
  const { phone } = await mobileStatus(userId);
  if (!phone) return failed(context, intent, "Add your mobile number first");
  const checked = await checkTextCode({ purpose: "verify", phone, userId, code });
  if (!checked.ok) return failed(context, intent, CODE_WRONG.description!);
  const marked = await markMobileVerified(userId, phone);
  if (marked === "taken")
    return failed(context, intent, "This number already signs in to another account.", 409);
  if (marked === "changed")
    return failed(context, intent, "Your mobile number changed. Please try again.");
  return {
    ok: true as const,
    intent,
    message: "Your mobile number is verified: you can sign in with a text code.",
    mobile: await mobileStatus(userId),
  };
}

/** Ends the session in the database and clears its cookie; then the sign-in page. */
async function signOut(request: Request, withJavaScript: boolean, context: AnswerContext) {
  let headers = new Headers();
  try {
    const response = await auth().api.signOut({ headers: request.headers, asResponse: true });
    headers = cookiesOf(response);
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { message?: string };
      return failed(context, "sign-out", body.message ?? "Failed to sign out", response.status);
    }
  } catch (error) {
    logger.error({ err: (error as Error).message }, "sign-out failed");
    return failed(context, "sign-out", (error as Error).message || "Failed to sign out", 500);
  }
  if (!withJavaScript) throw redirect(`${href("/auth")}?notice=signed-out`, { headers });
  return data({ ok: true as const, intent: "sign-out", message: "" }, { headers });
}
