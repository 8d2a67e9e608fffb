import type { Route } from "./+types/webhooks.twilio.status";
import { receiveTextStatus } from "~/features/notifications/notifications.server";
import { readSignedTwilioForm } from "~/lib/sms.server";

/*
 * POST /webhooks/twilio/status: Twilio's report of a text's delivery (queued, sent, delivered,
 * failed, undelivered), signed. A text that failed goes to the person by e-mail instead.
 */

export async function action({ request }: Route.ActionArgs) {
  const form = await readSignedTwilioForm(request);
  if (!form) return new Response("Forbidden", { status: 403 });
  if (!form.MessageSid || !form.MessageStatus) return new Response("Bad Request", { status: 400 });
  await receiveTextStatus({ messageSid: form.MessageSid, status: form.MessageStatus });
  return new Response(null, { status: 204 });
}

export function loader() {
  return new Response("Method Not Allowed", { status: 405, headers: { allow: "POST" } });
}
