import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { pendingPasswordResets, requestPasswordReset } from "~/features/accounts/sign-in.server";
import { auth } from "~/lib/auth.server";
import { action as authApi } from "~/routes/api.auth";
import { createUser } from "../../server/seed/factories";
import { callAuthApi, withAuthTestDatabase } from "../support/auth-api";

/*
 * A password-reset request takes the same time for a known and an unknown address (ADR 021):
 * the answer waits for the same work (the rate limit) in both cases, never for Better Auth's,
 * which for a known address stores a token and queues the e-mail. Proved structurally: with
 * Better Auth's work made to hang, both answers still come, the same for both.
 */

withAuthTestDatabase();
let release = () => {};
/** Better Auth's reset request made to hang until the test ends. */
function hangBetterAuth() {
  const gate = new Promise<void>((resolve) => (release = resolve));
  return vi.spyOn(auth().api, "requestPasswordReset").mockImplementation((async () => {
    await gate;
    return new Response("{}");
  }) as never);
}
afterEach(async () => {
  release();
  vi.restoreAllMocks();
  await pendingPasswordResets();
});

let counter = 0;
async function known() {
  counter += 1;
  return createUser(db(), {
    email: `reset-${counter}-${Date.now()}@example.com`,
    password: "Sturdy-Pass-2026!",
    firstName: "Rita",
    lastName: "Reset",
  });
}
const unknown = () => `nobody-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;

async function mailsTo(email: string) {
  return (await db().select().from(outbox).where(eq(outbox.kind, "email"))).filter(
    (row) => (row.payload as { to: string }).to === email,
  );
}

describe("password-reset requests", () => {
  it("the answer never waits for Better Auth's work, known address or not (/auth)", async () => {
    const started = hangBetterAuth();
    const account = await known();
    const answers = await Promise.all([
      requestPasswordReset(account.email, "10.77.0.1"),
      requestPasswordReset(unknown(), "10.77.0.2"),
    ]);
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toMatchObject({ type: "notice", notice: { title: "Reset link sent" } });
    // Both paths started the same work the same way.
    expect(started).toHaveBeenCalledTimes(2);
    const shapes = started.mock.calls.map(([options]) => Object.keys(options!.body!).sort());
    expect(shapes[0]).toEqual(shapes[1]);
  });

  it("the same through the API", async () => {
    hangBetterAuth();
    const account = await known();
    const [a, b] = await Promise.all(
      [account.email, unknown()].map((email) =>
        callAuthApi(authApi, {
          path: "/request-password-reset",
          body: { email, redirectTo: "/auth" },
        }),
      ),
    );
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await a.json()).toEqual(await b.json());
  });

  it("and the known address still gets its e-mail, the unknown one nothing", async () => {
    const account = await known();
    const stranger = unknown();
    await requestPasswordReset(account.email, "10.77.1.1");
    await callAuthApi(authApi, {
      path: "/request-password-reset",
      body: { email: stranger, redirectTo: "/auth" },
    });
    await pendingPasswordResets();
    const mails = await mailsTo(account.email);
    expect(mails).toHaveLength(1);
    expect((mails[0].payload as { subject: string }).subject).toMatch(/reset your .* password/i);
    expect(await mailsTo(stranger)).toHaveLength(0);
  });
});
