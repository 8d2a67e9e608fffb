import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, href, Link, useNavigation } from "react-router";
import { z } from "zod";
import { Button } from "~/components/ui/button";
import {
  firstValidationNotice,
  forgotPasswordSchema,
  resendConfirmationSchema,
  resetPasswordSchema,
  signInSchema,
  signUpSchema,
  textCodeRequestSchema,
  textCodeSchema,
  twoFactorCodeSchema,
} from "../schema";
import { FormField } from "~/components/ui/conform-fields";
import { showNotice } from "./notice";

/*
 * The forms of the /auth page. Each is a plain <Form method="post"> that the server action
 * validates, so it works without JavaScript; with it, Conform checks the same Zod schema
 * first and the first problem is toasted with the spec's title.
 */

type FormProps = { lastResult?: SubmissionResult<string[]> | null };

/** Conform's submit handler, plus the spec's toast when the browser-side check fails. */
function toastingSubmit(
  onSubmit: (event: React.FormEvent<HTMLFormElement>) => void,
  schema: z.ZodType,
) {
  return (event: React.FormEvent<HTMLFormElement>) => {
    onSubmit(event);
    if (!event.defaultPrevented) return;
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const formData = new FormData(event.currentTarget, submitter);
    const submission = parseWithZod(formData, { schema });
    if (submission.status === "error") {
      const notice = firstValidationNotice(submission.error);
      if (notice) showNotice(notice);
    }
  };
}

function usePendingIntent() {
  const navigation = useNavigation();
  return navigation.state === "submitting" ? String(navigation.formData?.get("intent")) : null;
}

/* The schemas' constraints (required, lengths) do not change: worked out once, not per render. */
const SIGN_IN_CONSTRAINT = getZodConstraint(signInSchema);
const SIGN_UP_CONSTRAINT = getZodConstraint(signUpSchema);
const RESET_PASSWORD_CONSTRAINT = getZodConstraint(resetPasswordSchema);

const signInOrForgot = z.discriminatedUnion("intent", [
  signInSchema,
  forgotPasswordSchema,
  resendConfirmationSchema,
]);

export function SignInForm({
  lastResult,
  offerResend = false,
}: FormProps & {
  /** Signing in found the address unconfirmed: offer a new confirmation e-mail. */
  offerResend?: boolean;
}) {
  const pending = usePendingIntent();
  const [form, fields] = useForm({
    id: "sign-in",
    lastResult,
    constraint: SIGN_IN_CONSTRAINT,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signInOrForgot }),
  });
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      onSubmit={toastingSubmit(form.onSubmit, signInOrForgot)}
      className="grid gap-4"
    >
      <FormField meta={fields.email} label="Email" type="email" autoComplete="email" />
      <FormField
        meta={fields.password}
        label="Password"
        type="password"
        autoComplete="current-password"
      />
      {/* The first submit button is the one Enter presses: signing in. */}
      <Button type="submit" name="intent" value="sign-in" disabled={pending !== null}>
        {pending === "sign-in" ? "Signing in..." : "Sign In"}
      </Button>
      <Button
        type="submit"
        name="intent"
        value="forgot"
        variant="link"
        className="h-auto justify-self-center p-0"
        disabled={pending !== null}
      >
        {pending === "forgot" ? "Sending reset link..." : "Forgot your password?"}
      </Button>
      {offerResend && (
        <Button
          type="submit"
          name="intent"
          value="resend-confirmation"
          variant="outline"
          disabled={pending !== null}
        >
          {pending === "resend-confirmation" ? "Sending..." : "Resend confirmation e-mail"}
        </Button>
      )}
    </Form>
  );
}

export type SignUpPrefill = { firstName: string; lastName: string; email: string };

export function SignUpForm({
  lastResult,
  prefill,
}: FormProps & {
  /** An invitation's name and e-mail (a lead invited by staff, issue 29 item 3). */
  prefill?: SignUpPrefill | null;
}) {
  const pending = usePendingIntent();
  const [form, fields] = useForm<z.input<typeof signUpSchema>>({
    id: "sign-up",
    lastResult,
    defaultValue: prefill ?? undefined,
    constraint: SIGN_UP_CONSTRAINT,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signUpSchema }),
  });
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      onSubmit={toastingSubmit(form.onSubmit, signUpSchema)}
      className="grid gap-4"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField meta={fields.firstName} label="First Name" autoComplete="given-name" />
        <FormField meta={fields.lastName} label="Last Name" autoComplete="family-name" />
      </div>
      <FormField meta={fields.email} label="Email" type="email" autoComplete="email" />
      <FormField
        meta={fields.password}
        label="Password"
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters, with an uppercase letter, a lowercase letter, a number and a special character."
      />
      <FormField
        meta={fields.mobilePhone}
        label="Mobile number (optional)"
        type="tel"
        autoComplete="tel"
        hint="For texts about your visits, if you want them."
      />
      <div className="flex items-start gap-2">
        <input
          id={fields.textMe.id}
          name={fields.textMe.name}
          type="checkbox"
          defaultChecked={fields.textMe.initialValue === "on"}
          className="mt-1 size-4 accent-primary"
        />
        <label htmlFor={fields.textMe.id} className="text-sm">
          Text me about my visits
          <span className="block text-muted-foreground">
            Reminders and updates by text. Message and data rates may apply. Reply STOP to stop.
          </span>
        </label>
      </div>
      <Button type="submit" name="intent" value="sign-up" disabled={pending !== null}>
        {pending === "sign-up" ? "Creating account..." : "Create Account"}
      </Button>
    </Form>
  );
}

export function ResetPasswordForm({ lastResult, token }: FormProps & { token: string }) {
  const pending = usePendingIntent();
  const [form, fields] = useForm({
    id: "reset-password",
    lastResult,
    constraint: RESET_PASSWORD_CONSTRAINT,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetPasswordSchema }),
  });
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      onSubmit={toastingSubmit(form.onSubmit, resetPasswordSchema)}
      className="grid gap-4"
    >
      <input type="hidden" name="token" value={token} />
      <FormField
        meta={fields.password}
        label="New Password"
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters, with an uppercase letter, a lowercase letter, a number and a special character."
      />
      <Button type="submit" name="intent" value="reset-password" disabled={pending !== null}>
        {pending === "reset-password" ? "Saving..." : "Set New Password"}
      </Button>
      <Link to={href("/auth")} className="justify-self-center text-sm text-primary underline">
        Back to sign in
      </Link>
    </Form>
  );
}

export function TwoFactorForm({ lastResult, method }: FormProps & { method: "totp" | "backup" }) {
  const pending = usePendingIntent();
  const intent = method === "totp" ? "verify-totp" : "verify-backup-code";
  const [form, fields] = useForm({
    id: `two-factor-${method}`,
    lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: twoFactorCodeSchema }),
  });
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      onSubmit={toastingSubmit(form.onSubmit, twoFactorCodeSchema)}
      className="grid gap-4"
    >
      {method === "totp" ? (
        <FormField
          meta={fields.code}
          label="Authentication code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          hint="The 6-digit code your authenticator app shows for this account."
          autoFocus
        />
      ) : (
        <FormField
          meta={fields.code}
          label="Backup code"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          hint="One of the backup codes you saved when you turned on two-factor authentication. Each works once."
          autoFocus
        />
      )}
      <Button type="submit" name="intent" value={intent} disabled={pending !== null}>
        {pending === intent ? "Verifying..." : "Verify"}
      </Button>
      <div className="flex flex-col items-center gap-2 text-sm">
        {method === "totp" ? (
          <Link
            to={`${href("/auth")}?step=two-factor&method=backup`}
            replace
            className="text-primary underline"
          >
            Use a backup code instead
          </Link>
        ) : (
          <Link to={`${href("/auth")}?step=two-factor`} replace className="text-primary underline">
            Use a code from your authenticator app
          </Link>
        )}
        <Link to={href("/auth")} className="text-primary underline">
          Start over
        </Link>
      </div>
    </Form>
  );
}

/** What a text code protects against, and what it does not (NIST SP 800-63B: "restricted"). */
export function TextCodeLimits() {
  return (
    <details open className="rounded-md border bg-muted/40 p-3 text-sm">
      <summary className="cursor-pointer font-medium">What a text code protects against</summary>
      <div className="mt-2 grid gap-2 text-muted-foreground">
        <p>
          A code proves you have your phone: your number alone signs nobody in, and each code works
          once, for 5 minutes and 3 tries.
        </p>
        <p>
          It cannot protect you if someone takes your number over (a SIM swap, or the number moved
          to another carrier) or reads your texts. So it never replaces two-step verification: with
          an authenticator app turned on, you still enter its code next.
        </p>
        <p>
          Your e-mail and password, with two-step verification turned on, remain the stronger way to
          sign in.
        </p>
      </div>
    </details>
  );
}

/** 'Sign in with a text code', step one: the mobile number (ADR 086). */
export function TextCodeRequestForm({ lastResult, formKey }: FormProps & { formKey: string }) {
  const pending = usePendingIntent();
  const [form, fields] = useForm({
    id: "text-code-request",
    lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: textCodeRequestSchema }),
  });
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      onSubmit={toastingSubmit(form.onSubmit, textCodeRequestSchema)}
      className="grid gap-4"
    >
      <input type="hidden" name="key" value={formKey} />
      <FormField
        meta={fields.mobilePhone}
        label="Mobile number"
        type="tel"
        autoComplete="tel-national"
        placeholder="(555) 123-4567"
        hint="The mobile number verified in your profile (Profile Settings, Notifications)."
        autoFocus
      />
      <Button type="submit" name="intent" value="send-sign-in-code" disabled={pending !== null}>
        {pending === "send-sign-in-code" ? "Sending..." : "Text me a code"}
      </Button>
      <Link to={href("/auth")} className="justify-self-center text-sm text-primary underline">
        Sign in with e-mail and password
      </Link>
    </Form>
  );
}

/** Step two: the code from the text. */
export function TextCodeForm({ lastResult }: FormProps) {
  const pending = usePendingIntent();
  const [form, fields] = useForm({
    id: "text-code",
    lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: textCodeSchema }),
  });
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      onSubmit={toastingSubmit(form.onSubmit, textCodeSchema)}
      className="grid gap-4"
    >
      <FormField
        meta={fields.code}
        label="Code from the text"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={7}
        hint="6 digits. It works for 5 minutes and 3 tries."
        autoFocus
      />
      <Button type="submit" name="intent" value="verify-sign-in-code" disabled={pending !== null}>
        {pending === "verify-sign-in-code" ? "Signing in..." : "Sign In"}
      </Button>
      <div className="flex flex-col items-center gap-2 text-sm">
        <Link to={`${href("/auth")}?mode=text-code`} className="text-primary underline">
          Send a new code
        </Link>
        <Link to={href("/auth")} className="text-primary underline">
          Sign in with e-mail and password
        </Link>
      </div>
    </Form>
  );
}
