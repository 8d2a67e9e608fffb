import type { Route } from "./+types/webhooks.twilio.sms";
import { receiveTextReply } from "~/features/notifications/notifications.server";
import { readSignedTwilioForm, twimlReply } from "~/lib/sms.server";

/*
 * POST /webhooks/twilio/sms: a reply to the business's number (STOP, START, HELP), signed by
 * Twilio. A missing or wrong signature: 403 and nothing stored.
 */

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return new Response("Method Not Allowed", { status: 405 });
  const form = await readSignedTwilioForm(request);
  if (!form) return new Response("Forbidden", { status: 403 });
  if (!form.MessageSid || !form.From) return new Response("Bad Request", { status: 400 });
  const reply = await receiveTextReply({
    messageSid: form.MessageSid,
    from: form.From,
    body: form.Body ?? "",
  });
  return twimlReply(reply);
}

export function loader() {
  return new Response("Method Not Allowed", { status: 405, headers: { allow: "POST" } });
}
