import { href, type FetcherWithComponents } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { PasswordInput } from "~/components/ui/password-input";

/** The forms of the two-factor card (two-factor-card.tsx); each posts to /account. */

export type Enrolment = { qrCodeDataUrl: string; secret: string; backupCodes: string[] };
export type TwoFactorAnswer = {
  ok: boolean;
  intent: string;
  message: string;
  enrolment?: Enrolment;
  backupCodes?: string[];
};
type Fetcher = FetcherWithComponents<TwoFactorAnswer>;

/** Setting up starts with the password. */
export function EnablePasswordForm({
  fetcher,
  busy,
  onCancel,
}: {
  fetcher: Fetcher;
  busy: boolean;
  onCancel(): void;
}) {
  return (
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
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </fetcher.Form>
  );
}

/** Then the QR code (or its key) for the app, and the app's first code to finish. */
export function EnrolmentStep({
  fetcher,
  busy,
  enrolment,
  onCancel,
}: {
  fetcher: Fetcher;
  busy: boolean;
  enrolment: Enrolment;
  onCancel(): void;
}) {
  return (
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
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </fetcher.Form>
    </div>
  );
}

/** When it is on: new backup codes, or turning it off, each with the password. */
export function ManageTwoFactorForm({ fetcher, busy }: { fetcher: Fetcher; busy: boolean }) {
  return (
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
  );
}
