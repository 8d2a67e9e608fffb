import { auth } from "~/lib/auth.server";
import { answerOf, cookiesOf } from "./sign-in.server";

/*
 * Two-factor enrolment from Profile Settings, through Better Auth's twoFactor plugin: start
 * (password → QR code, secret and backup codes), confirm with a first code, turn off with the
 * password. Better Auth replaces the session on each change; its cookies travel in `headers`.
 */

export type TwoFactorResult =
  { ok: true; headers: Headers } | { ok: false; message: string; status: number };

export type Enrolment = {
  qrCodeDataUrl: string;
  secret: string;
  backupCodes: string[];
};

async function errorOf(response: Response) {
  try {
    const body = (await response.json()) as { message?: string };
    if (body?.message) return body.message;
  } catch {
    // not JSON
  }
  return "Something went wrong. Please try again.";
}

function messageFor(message: string) {
  return /invalid password/i.test(message) ? "Incorrect password" : message;
}

export async function startEnrolment(
  request: Request,
  password: string,
): Promise<({ ok: true } & Enrolment) | { ok: false; message: string; status: number }> {
  const response = await answerOf(() =>
    auth().api.enableTwoFactor({
      body: { password },
      headers: request.headers,
      asResponse: true,
    }),
  );
  if (!response.ok)
    return { ok: false, message: messageFor(await errorOf(response)), status: response.status };
  const body = (await response.json()) as { totpURI: string; backupCodes: string[] };
  const secret = new URL(body.totpURI).searchParams.get("secret") ?? "";
  // Loaded here, by the one screen that draws a code, rather than when the server starts.
  const { default: QRCode } = await import("qrcode");
  const svg = await QRCode.toString(body.totpURI, { type: "svg", margin: 1 });
  return {
    ok: true,
    qrCodeDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
    secret,
    backupCodes: body.backupCodes,
  };
}

export async function confirmEnrolment(request: Request, code: string): Promise<TwoFactorResult> {
  const response = await answerOf(() =>
    auth().api.verifyTOTP({
      body: { code },
      headers: request.headers,
      asResponse: true,
    }),
  );
  if (!response.ok) return { ok: false, message: await errorOf(response), status: response.status };
  return { ok: true, headers: cookiesOf(response) };
}

export async function turnOff(request: Request, password: string): Promise<TwoFactorResult> {
  const response = await answerOf(() =>
    auth().api.disableTwoFactor({
      body: { password },
      headers: request.headers,
      asResponse: true,
    }),
  );
  if (!response.ok)
    return { ok: false, message: messageFor(await errorOf(response)), status: response.status };
  return { ok: true, headers: cookiesOf(response) };
}

export async function newBackupCodes(
  request: Request,
  password: string,
): Promise<{ ok: true; backupCodes: string[] } | { ok: false; message: string; status: number }> {
  const response = await answerOf(() =>
    auth().api.generateBackupCodes({
      body: { password },
      headers: request.headers,
      asResponse: true,
    }),
  );
  if (!response.ok)
    return { ok: false, message: messageFor(await errorOf(response)), status: response.status };
  const body = (await response.json()) as { backupCodes: string[] };
  return { ok: true, backupCodes: body.backupCodes };
}
