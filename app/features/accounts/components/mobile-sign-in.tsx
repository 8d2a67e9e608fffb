import { useEffect, useState } from "react";
import { href, useFetcher } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";

export type MobileStatus = { phone: string | null; verified: boolean };

type Answer = { ok: boolean; intent: string; message: string; mobile?: MobileStatus };

/** A fresh idempotency key for the next 'Verify' (a double tap texts once). */
function newKey() {
  return crypto.randomUUID().replace(/-/g, "");
}

/**
 * 'Verify' the mobile with a texted code, so it can sign the person in (ADR 086). Shown in
 * Notifications for members and on its own card for staff.
 */
export function MobileVerification({ mobile }: { mobile: MobileStatus | null }) {
  const fetcher = useFetcher<Answer>();
  const [key, setKey] = useState(newKey);
  const [codeSent, setCodeSent] = useState(false);
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  const current = answer?.mobile ?? mobile;
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    if (!answer) return;
    if (answer.intent === "send-mobile-code") setKey(newKey());
    if (!answer.ok) {
      toast.error("Error", { description: answer.message });
      return;
    }
    toast.success(answer.message);
    if (answer.intent === "send-mobile-code") setCodeSent(true);
    if (answer.intent === "verify-mobile") setCodeSent(false);
  }, [answer]);

  if (!current?.phone) return null;
  if (current.verified)
    return (
      <p className="text-sm text-muted-foreground">
        Your mobile number is verified: you can sign in with a text code.
      </p>
    );
  return (
    <div className="grid gap-3 text-sm">
      <p className="text-muted-foreground">
        Verify your mobile number to sign in with a text code.
      </p>
      <fetcher.Form method="post" action={href("/account")}>
        <input type="hidden" name="key" value={key} />
        <Button
          type="submit"
          name="intent"
          value="send-mobile-code"
          variant="outline"
          size="sm"
          disabled={busy}
        >
          {busy && fetcher.formData?.get("intent") === "send-mobile-code"
            ? "Sending..."
            : codeSent
              ? "Send a new code"
              : "Verify"}
        </Button>
      </fetcher.Form>
      {codeSent && (
        <fetcher.Form method="post" action={href("/account")} className="grid gap-2">
          <Label htmlFor="mobile-code">Code from the text</Label>
          <Input
            id="mobile-code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            required
          />
          <Button type="submit" name="intent" value="verify-mobile" size="sm" disabled={busy}>
            {busy && fetcher.formData?.get("intent") === "verify-mobile"
              ? "Verifying..."
              : "Verify code"}
          </Button>
        </fetcher.Form>
      )}
    </div>
  );
}

/** Staff have no Notifications card: their mobile's 'Verify' on a card of its own. */
export function MobileSignInCard({ mobile }: { mobile: MobileStatus | null }) {
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h3>Sign in with a text code</h3>
        </CardTitle>
        <CardDescription>
          {mobile?.phone
            ? "A verified mobile can sign you in with a code by text."
            : "Add your mobile number under Profile Information to sign in with a text code."}
        </CardDescription>
      </CardHeader>
      {mobile?.phone && (
        <CardContent>
          <MobileVerification mobile={mobile} />
        </CardContent>
      )}
    </Card>
  );
}
