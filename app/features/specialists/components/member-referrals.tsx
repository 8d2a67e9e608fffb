import { Form } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import type { MemberReferralView } from "../types";
import { BUSINESS_TIME_ZONE } from "~/lib/business-calendar";

// One formatter for the module: toLocaleDateString with options builds a new one per call.
const dayFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: BUSINESS_TIME_ZONE,
  month: "long",
  day: "numeric",
});
const day = (iso: string) => dayFormat.format(new Date(iso));

/**
 * The member's 'Referrals' (issue 41, item 6): each specialist with the status, the contact,
 * the license and the referral fee; 'Send my job' gives the specialist the job by e-mail.
 */
export function MemberReferrals({
  referrals,
  message,
}: {
  referrals: MemberReferralView[];
  message: { ok: boolean; message: string } | null;
}) {
  if (!referrals.length) return null;
  return (
    <section
      aria-labelledby="referrals-heading"
      className="grid gap-3 rounded-lg border bg-card p-4"
    >
      <h2 id="referrals-heading" className="text-lg font-semibold">
        Referrals
      </h2>
      {message ? (
        <p role={message.ok ? "status" : "alert"} className="text-sm">
          {message.message}
        </p>
      ) : null}
      <ul className="grid gap-3" aria-label="Your referrals">
        {referrals.map((r) => (
          <li key={r.id} className="grid gap-1 border-t pt-3 first:border-t-0 first:pt-0">
            <p className="flex flex-wrap items-center gap-2 font-medium">
              {r.specialist.company} · {r.specialist.trade}
              <Badge variant="secondary">{r.statusLabel}</Badge>
            </p>
            <p className="text-sm">{r.reason}</p>
            <p className="text-sm">
              Contact:{" "}
              {[r.specialist.contactName, r.specialist.phone, r.specialist.email]
                .filter(Boolean)
                .join(" · ") || "call us"}
            </p>
            <p className="text-sm text-muted-foreground">
              {r.specialist.licenseNumber ? `License ${r.specialist.licenseNumber}. ` : ""}
              {r.feeLine}
            </p>
            {r.consentAt ? (
              <p className="text-sm text-muted-foreground">
                Your job was sent to {r.specialist.company} on {day(r.consentAt)}.
              </p>
            ) : (
              <Form method="post">
                <input type="hidden" name="intent" value="referral-consent" />
                <input type="hidden" name="referralId" value={r.id} />
                <Button type="submit" variant="outline" size="sm">
                  Send my job to {r.specialist.company}
                </Button>
              </Form>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
