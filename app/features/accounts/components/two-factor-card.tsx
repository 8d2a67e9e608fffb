import { ShieldCheck } from "lucide-react";
import { useEffect, useState } from "react";
import { href, useFetcher } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { PasswordInput } from "~/components/ui/password-input";

type Enrolment = { qrCodeDataUrl: string; secret: string; backupCodes: string[] };
type Answer = {
  ok: boolean;
  intent: string;
  message: string;
  enrolment?: Enrolment;
  backupCodes?: string[];
};

/**
 * Two-factor sign-in with an authenticator app: set up (password, then QR code or key, then a
 * first code), backup codes, and turning it off with the password.
 */
export function TwoFactorCard({ enabled }: { enabled: boolean }) {
  const fetcher = useFetcher<Answer>();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codesToSave, setCodesToSave] = useState<string[] | null>(null);
  const [askPassword, setAskPassword] = useState(false);
  const busy = fetcher.state !== "idle";
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;

  useEffect(() => {
    if (!answer) return;
    if (!answer.ok) {
      toast.error("Error", { description: answer.message });
      return;
    }
    switch (answer.intent) {
      case "two-factor-enable":
        setEnrolment(answer.enrolment ?? null);
        setAskPassword(false);
        break;
      case "two-factor-verify":
        toast.success("Two-factor authentication is on", {
          description: "Sign-in now asks for a code from your authenticator app.",
        });
        setCodesToSave(enrolment?.backupCodes ?? null);
        setEnrolment(null);
        break;
      case "two-factor-disable":
        toast.success("Two-factor authentication is off");
        setCodesToSave(null);
        break;
      case "two-factor-backup-codes":
        toast.success("New backup codes created", {
          description: "Your old backup codes no longer work.",
        });
        setCodesToSave(answer.backupCodes ?? null);
        break;
    }
    // Only a new answer matters here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [answer]);

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h3>Two-Factor Authentication</h3>
        </CardTitle>
        <CardDescription>
          {enabled
            ? "On: signing in asks for a code from your authenticator app."
            : "Protect your account with a code from an authenticator app at every sign-in."}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {codesToSave && <BackupCodes codes={codesToSave} onDone={() => setCodesToSave(null)} />}

        {!enabled && !enrolment && !askPassword && (
          <Button
            variant="outline"
            className="justify-self-start"
            onClick={() => setAskPassword(true)}
          >
            <ShieldCheck aria-hidden="true" />
            Set up two-factor authentication
          </Button>
        )}

        {!enabled && !enrolment && askPassword && (
          <fetcher.Form method="post" action={href("/account")} className="grid gap-3">
            <input type="hidden" name="intent" value="two-factor-enable" />
            <div className="grid gap-2">
              <Label htmlFor="two-factor-enable-password">Confirm your password</Label>
              <PasswordInput
                id="two-factor-enable-password"
                name="password"
                autoComplete="current-password"
                required
                autoFocus
              />
            </div>
            <div className="flex gap-2">
              <Button type="submit" disabled={busy}>
                {busy ? "Please wait..." : "Continue"}
              </Button>
              <Button type="button" variant="outline" onClick={() => setAskPassword(false)}>
                Cancel
              </Button>
            </div>
          </fetcher.Form>
        )}

        {!enabled && enrolment && (
          <div className="grid gap-4">
            <ol className="grid list-decimal gap-2 pl-5 text-sm">
              <li>Scan this QR code with your authenticator app.</li>
              <li>Enter the 6-digit code the app shows to finish.</li>
            </ol>
            <img
              src={enrolment.qrCodeDataUrl}
              alt="QR code to add this account to your authenticator app"
              width={176}
              height={176}
              className="justify-self-center rounded border bg-white p-2 sm:justify-self-start"
            />
            <p className="text-sm">
              Can&apos;t scan it? Enter this setup key instead:{" "}
              <code
                className="rounded bg-muted px-1.5 py-0.5 font-mono break-all"
                data-testid="totp-secret"
              >
                {enrolment.secret}
              </code>
            </p>
            <fetcher.Form method="post" action={href("/account")} className="grid gap-3">
              <input type="hidden" name="intent" value="two-factor-verify" />
              <div className="grid gap-2">
                <Label htmlFor="two-factor-code">6-digit code</Label>
                <Input
                  id="two-factor-code"
                  name="code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  required
                  autoFocus
                />
              </div>
              <div className="flex gap-2">
                <Button type="submit" disabled={busy}>
                  {busy ? "Verifying..." : "Verify and turn on"}
                </Button>
                <Button type="button" variant="outline" onClick={() => setEnrolment(null)}>
                  Cancel
                </Button>
              </div>
            </fetcher.Form>
          </div>
        )}

        {enabled && (
          <fetcher.Form method="post" action={href("/account")} className="grid gap-3">
            <div className="grid gap-2">
              <Label htmlFor="two-factor-manage-password">Your password</Label>
              <PasswordInput
                id="two-factor-manage-password"
                name="password"
                autoComplete="current-password"
                required
              />
            </div>
            <div className="flex flex-wrap gap-2">
              <Button
                type="submit"
                name="intent"
                value="two-factor-backup-codes"
                variant="outline"
                disabled={busy}
              >
                Get new backup codes
              </Button>
              <Button
                type="submit"
                name="intent"
                value="two-factor-disable"
                variant="destructive"
                disabled={busy}
              >
                Turn off two-factor authentication
              </Button>
            </div>
          </fetcher.Form>
        )}
      </CardContent>
    </Card>
  );
}

function BackupCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <section
      aria-labelledby="backup-codes-title"
      className="grid gap-3 rounded-md border border-primary/30 bg-secondary p-4"
    >
      <h4 id="backup-codes-title" className="font-semibold">
        Save your backup codes
      </h4>
      <p className="text-sm">
        If you lose your phone, sign in with one of these codes instead. Each code works once. Keep
        them somewhere safe: they are not shown again.
      </p>
      <ul className="grid grid-cols-2 gap-1 font-mono text-sm" aria-label="Backup codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <Button variant="outline" className="justify-self-start" onClick={onDone}>
        I have saved them
      </Button>
    </section>
  );
}
