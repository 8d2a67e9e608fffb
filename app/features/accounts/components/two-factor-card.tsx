import { ShieldCheck } from "lucide-react";
import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import {
  EnablePasswordForm,
  type Enrolment,
  EnrolmentStep,
  ManageTwoFactorForm,
  type TwoFactorAnswer,
} from "./two-factor-forms";

/**
 * Two-factor sign-in with an authenticator app: set up (password, then QR code or key, then a
 * first code), backup codes, and turning it off with the password.
 */
export function TwoFactorCard({ enabled }: { enabled: boolean }) {
  const fetcher = useFetcher<TwoFactorAnswer>();
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
          <EnablePasswordForm
            fetcher={fetcher}
            busy={busy}
            onCancel={() => setAskPassword(false)}
          />
        )}

        {!enabled && enrolment && (
          <EnrolmentStep
            fetcher={fetcher}
            busy={busy}
            enrolment={enrolment}
            onCancel={() => setEnrolment(null)}
          />
        )}

        {enabled && <ManageTwoFactorForm fetcher={fetcher} busy={busy} />}
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
