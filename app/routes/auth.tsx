import { AppHeader } from "~/components/layout/app-header";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect } from "react";
import {
  Link,
  redirect,
  useNavigate,
  useNavigation,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import { z } from "zod";
import type { Route } from "./+types/auth";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import {
  ResetPasswordForm,
  SignInForm,
  SignUpForm,
  TextCodeForm,
  TextCodeLimits,
  TextCodeRequestForm,
  TwoFactorForm,
} from "~/features/accounts/components/auth-forms";
import {
  NoticeFallback,
  useNoticeToast,
  type ShownNotice,
} from "~/features/accounts/components/notice";
import { PropertySetupDialog } from "~/features/accounts/components/property-setup-dialog";
import { createFirstHome } from "~/features/accounts/profile.server";
import {
  firstValidationNotice,
  forgotPasswordSchema,
  homeSchema,
  resendConfirmationSchema,
  resetPasswordSchema,
  signInSchema,
  signUpSchema,
  textCodeRequestSchema,
  textCodeSchema,
  twoFactorCodeSchema,
  type Notice,
} from "~/features/accounts/schema";
import {
  requestPasswordReset,
  resendConfirmation,
  resetPassword,
  signIn,
  signUp,
  URL_NOTICES,
  verifySecondFactor,
  type AuthOutcome,
} from "~/features/accounts/sign-in.server";
import {
  pendingPhone,
  sendSignInCode,
  signInWithTextCode,
} from "~/features/accounts/text-code-sign-in.server";
import { newActionKey } from "~/lib/action-keys.server";
import { PENDING_TWO_FACTOR } from "~/lib/auth-cookies";
import { answer } from "~/lib/form-answer.server";
import { logger } from "~/lib/logger.server";
import { getSessionUser } from "~/lib/session.server";
import { useBusiness } from "~/lib/business";
import { withoutControlCharacters } from "~/lib/validation";

type View =
  "sign-in" | "sign-up" | "reset" | "two-factor" | "text-code-request" | "text-code" | "property";

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  let notice: Notice | undefined = URL_NOTICES[url.searchParams.get("notice") ?? ""];
  if (url.searchParams.get("error")) notice = URL_NOTICES["reset-link-invalid"];

  // The password-reset e-mail lands here with its token (DESIGN decision 10).
  const token = url.searchParams.get("token");
  if (token) return { view: "reset" as View, token, notice, method: null };

  const user = await getSessionUser(request);
  if (user) {
    if (user.isEmployee) throw redirect(user.isHandyman ? "/employee/today" : "/employee");
    if (user.hasHome) throw redirect("/dashboard");
    return { view: "property" as View, token: null, notice, method: null };
  }

  if (url.searchParams.get("step") === "two-factor") {
    if (PENDING_TWO_FACTOR.test(request.headers.get("cookie") ?? "")) {
      const method = url.searchParams.get("method") === "backup" ? "backup" : "totp";
      return { view: "two-factor" as View, token: null, notice, method };
    }
    notice = URL_NOTICES["two-factor-expired"];
  }
  // 'Sign in with a text code' (ADR 086): the number, then the code (its number in a cookie).
  if (url.searchParams.get("step") === "text-code") {
    if (pendingPhone(request))
      return { view: "text-code" as View, token: null, notice, method: null };
    notice = URL_NOTICES["text-code-expired"];
  }
  if (url.searchParams.get("step") === "text-code" || url.searchParams.get("mode") === "text-code")
    return {
      view: "text-code-request" as View,
      token: null,
      notice,
      method: null,
      formKey: newActionKey(),
    };
  const view: View = url.searchParams.get("mode") === "sign-up" ? "sign-up" : "sign-in";
  return { view, token: null, notice, method: null, prefill: signUpPrefill(url.searchParams) };
}

/** An invitation's link fills the sign-up form in: name and e-mail (short, plain text only). */
function signUpPrefill(params: URLSearchParams) {
  const value = (name: string, max: number) => {
    const v = (params.get(name) ?? "").trim();
    return v.length <= max && withoutControlCharacters(v) ? v : "";
  };
  const prefill = {
    firstName: value("firstName", 50),
    lastName: value("lastName", 50),
    email: value("email", 254),
  };
  return prefill.firstName || prefill.lastName || prefill.email ? prefill : null;
}

const authSchema = z.discriminatedUnion("intent", [
  signUpSchema,
  signInSchema,
  forgotPasswordSchema,
  resendConfirmationSchema,
  resetPasswordSchema,
  twoFactorCodeSchema,
  textCodeRequestSchema,
  textCodeSchema,
]);

function shown(notice: Notice): ShownNotice {
  return { ...notice, id: crypto.randomUUID() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  // Only a hydrated page sends `js`: it toasts and navigates itself; a plain form is redirected.
  const withJavaScript = formData.get("js") === "1";

  if (intent === "property") return saveProperty(request, formData, withJavaScript, context);

  const submission = parseWithZod(formData, { schema: authSchema });
  if (submission.status !== "success") {
    const notice = firstValidationNotice(submission.error);
    return answer(
      {
        ok: false,
        intent,
        result: submission.reply({ hideFields: ["password"] }),
        notice: notice ? shown(notice) : null,
      },
      context,
    );
  }

  const input = submission.value;
  let outcome: AuthOutcome;
  try {
    switch (input.intent) {
      case "sign-up":
        outcome = await signUp(input, request, context.clientAddress);
        break;
      case "sign-in":
        outcome = await signIn(input, request, context.clientAddress);
        break;
      case "forgot":
        outcome = await requestPasswordReset(input.email, context.clientAddress);
        break;
      case "resend-confirmation":
        outcome = await resendConfirmation(input.email, context.clientAddress);
        break;
      case "reset-password":
        outcome = await resetPassword(input.token, input.password);
        break;
      case "verify-totp":
      case "verify-backup-code":
        outcome = await verifySecondFactor(input, request);
        break;
      case "send-sign-in-code":
        outcome = await sendSignInCode(input, context.clientAddress);
        break;
      case "verify-sign-in-code":
        outcome = await signInWithTextCode(input, request, context.clientAddress);
        break;
    }
  } catch (error) {
    logger.error({ err: (error as Error).message, intent }, "auth action failed");
    outcome = {
      type: "notice",
      notice: {
        kind: "error",
        title: "Error",
        description: "Something went wrong. Please try again.",
      },
      status: 500,
    };
  }

  if (outcome.type === "redirect") throw redirect(outcome.to, { headers: outcome.headers });
  if (outcome.type === "two-factor")
    throw redirect("/auth?step=two-factor", { headers: outcome.headers });
  const succeeded = outcome.notice.kind === "success";
  return answer(
    {
      ok: succeeded,
      intent,
      // A successful sign-up starts a clean form; failures keep what was typed except passwords.
      result: submission.reply(
        succeeded && intent === "sign-up" ? { resetForm: true } : { hideFields: ["password"] },
      ),
      notice: shown(outcome.notice),
      offerResend: outcome.offerResend ?? false,
    },
    context,
    { status: outcome.status ?? 200, headers: outcome.headers, ordinary: outcome.ordinary },
  );
}

async function saveProperty(
  request: Request,
  formData: FormData,
  withJavaScript: boolean,
  context: Route.ActionArgs["context"],
) {
  const user = await getSessionUser(request);
  const submission = parseWithZod(formData, { schema: homeSchema });
  if (!user) {
    return answer(
      {
        ok: false,
        intent: "property",
        result: submission.reply(),
        notice: shown({ kind: "error", title: "Error", description: "Not authenticated" }),
      },
      context,
      { status: 401 },
    );
  }
  if (user.isEmployee) throw redirect(user.isHandyman ? "/employee/today" : "/employee");
  if (submission.status !== "success") {
    return answer(
      { ok: false, intent: "property", result: submission.reply(), notice: null },
      context,
    );
  }
  try {
    await createFirstHome(user.id, submission.value);
  } catch (error) {
    logger.error({ err: (error as Error).message }, "property setup failed");
    return answer(
      {
        ok: false,
        intent: "property",
        result: submission.reply(),
        notice: shown({
          kind: "error",
          title: "Error",
          description: "Failed to save property information",
        }),
      },
      context,
      { status: 500 },
    );
  }
  if (!withJavaScript) throw redirect("/dashboard");
  return {
    ok: true,
    intent: "property",
    result: submission.reply({ resetForm: true }),
    notice: shown({
      kind: "success",
      title: "Welcome!",
      description: "Your property information has been saved.",
    }),
    redirectTo: "/dashboard",
  };
}

/**
 * After the property is saved the page shows its toast and moves on by itself; reloading /auth
 * first would redirect away before the toast is shown.
 */
export function shouldRevalidate({
  actionResult,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (actionResult && typeof actionResult === "object" && "redirectTo" in actionResult)
    return false;
  return defaultShouldRevalidate;
}

export function meta({ data: loaderData, matches }: Route.MetaArgs) {
  const root = matches.find((match) => match?.id === "root")?.data as
    { business?: { name: string } } | undefined;
  const name = root?.business?.name ?? "our service";
  const titles: Record<View, string> = {
    "sign-in": `Sign in to ${name}`,
    "sign-up": "Create your account",
    reset: "Set a new password",
    "two-factor": "Two-step verification",
    "text-code-request": "Sign in with a text code",
    "text-code": "Enter your code",
    property: "Set up your property",
  };
  return [{ title: `${titles[loaderData?.view ?? "sign-in"]} | ${name}` }];
}

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  const business = useBusiness();
  const navigate = useNavigate();
  const { view, token, method } = loaderData;
  const urlNotice = loaderData.notice ? { ...loaderData.notice, id: `url-${view}` } : null;
  const lastResult = (intents: string[]) =>
    actionData && intents.includes(actionData.intent) ? actionData.result : undefined;

  useNoticeToast(actionData?.notice);
  useNoticeToast(urlNotice);

  // The notice named in the address was shown once; a reload should not show it again.
  const hasUrlNotice = Boolean(urlNotice);
  useEffect(() => {
    if (!hasUrlNotice) return;
    const url = new URL(window.location.href);
    url.searchParams.delete("notice");
    url.searchParams.delete("error");
    navigate(`${url.pathname}${url.search}`, { replace: true, preventScrollReset: true });
  }, [hasUrlNotice, navigate]);

  // Moves on only once the form's own submission has finished (its answer and the reload of
  // the root's data after it): navigating while they still stream aborts them, and each abort
  // surfaced in the console as an AbortError ('signal is aborted without reason').
  const redirectTo = actionData && "redirectTo" in actionData ? actionData.redirectTo : null;
  const settled = useNavigation().state === "idle";
  useEffect(() => {
    if (redirectTo && settled) navigate(redirectTo, { replace: true });
  }, [redirectTo, settled, navigate]);

  const heading: Record<View, { title: string; text: string }> = {
    "sign-in": {
      title: `Sign in to ${business.name}`,
      text: "Welcome back! Sign in to request service, see your appointments and keep your home in shape.",
    },
    "sign-up": {
      title: "Create your account",
      text: `Join ${business.name} for a dedicated handyman and a home maintenance plan made for you.`,
    },
    reset: {
      title: "Set a new password",
      text: "Choose a new password for your account.",
    },
    "two-factor": {
      title: "Two-step verification",
      text:
        method === "backup"
          ? "Enter one of your backup codes to finish signing in."
          : "Enter the 6-digit code from your authenticator app to finish signing in.",
    },
    "text-code-request": {
      title: "Sign in with a text code",
      text: "We text a 6-digit code to the mobile number you verified in your profile.",
    },
    "text-code": {
      title: "Enter your code",
      text: "Enter the 6-digit code from the text we sent to your mobile.",
    },
    property: {
      title: business.name,
      text: "One more step before your dashboard.",
    },
  };

  return (
    <>
      <AppHeader />
      <main
        id="main"
        className="flex min-h-[calc(100dvh-4rem)] items-center justify-center bg-muted px-4 py-10"
      >
        <div className="grid w-full max-w-md gap-4" inert={view === "property"}>
          <Card>
            <CardHeader className="text-center">
              <CardTitle asChild>
                <h1 className="text-2xl font-bold">{heading[view].title}</h1>
              </CardTitle>
              <CardDescription>{heading[view].text}</CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4">
              <NoticeFallback notice={actionData?.notice ?? urlNotice} />
              {view === "sign-in" && (
                <SignInForm
                  lastResult={lastResult(["sign-in", "forgot", "resend-confirmation"])}
                  offerResend={Boolean(
                    actionData && "offerResend" in actionData && actionData.offerResend,
                  )}
                />
              )}
              {view === "sign-up" && (
                <SignUpForm
                  lastResult={lastResult(["sign-up"])}
                  prefill={"prefill" in loaderData ? loaderData.prefill : null}
                />
              )}
              {view === "reset" && token && (
                <ResetPasswordForm token={token} lastResult={lastResult(["reset-password"])} />
              )}
              {view === "two-factor" && (
                <TwoFactorForm
                  key={method}
                  method={method === "backup" ? "backup" : "totp"}
                  lastResult={lastResult(["verify-totp", "verify-backup-code"])}
                />
              )}
              {view === "text-code-request" && (
                <TextCodeRequestForm
                  formKey={"formKey" in loaderData ? String(loaderData.formKey) : ""}
                  lastResult={lastResult(["send-sign-in-code"])}
                />
              )}
              {view === "text-code" && (
                <TextCodeForm lastResult={lastResult(["verify-sign-in-code"])} />
              )}
              {(view === "text-code-request" || view === "text-code") && <TextCodeLimits />}
              {view === "sign-in" && (
                <Link
                  to="/auth?mode=text-code"
                  className="justify-self-center text-sm font-medium text-primary underline"
                >
                  Sign in with a text code
                </Link>
              )}
              {view === "sign-in" && (
                <p className="text-center text-sm text-muted-foreground">
                  Don&apos;t have an account?{" "}
                  <Link to="/auth?mode=sign-up" className="font-medium text-primary underline">
                    Sign up
                  </Link>
                </p>
              )}
              {view === "sign-up" && (
                <p className="text-center text-sm text-muted-foreground">
                  Already have an account?{" "}
                  <Link to="/auth" className="font-medium text-primary underline">
                    Sign in
                  </Link>
                </p>
              )}
            </CardContent>
          </Card>
          <Link to="/" className="justify-self-center text-sm text-primary underline">
            Back to home
          </Link>
        </div>
        {view === "property" && <PropertySetupDialog lastResult={lastResult(["property"])} />}
      </main>
    </>
  );
}
