import { and, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import { z } from "zod";
import { db } from "~/db/client.server";
import { textCodes } from "~/db/schema";

/*
 * The session of a sign-in with a text code (ADR 086), created by Better Auth like any other:
 * same table, same cookie, same lifetime. The endpoint is server-only (never routed under
 * /api/auth) and takes only a code just checked right: it claims that code's one session in a
 * single UPDATE, so a code signs in once. Its path is the one Better Auth's two-factor plugin
 * watches: an account with TOTP gets the TOTP step next, as after a password.
 */

/** How soon after the right code its session must be asked for (the same request, in fact). */
const CLAIM_WINDOW_MS = 60_000;

export function textCodeSession() {
  return {
    id: "text-code-session",
    endpoints: {
      signInWithTextCode: createAuthEndpoint(
        "/sign-in/phone-number",
        {
          method: "POST",
          body: z.object({ codeId: z.uuid() }),
          metadata: { SERVER_ONLY: true },
        },
        async (ctx) => {
          const since = new Date(Date.now() - CLAIM_WINDOW_MS);
          const [claimed] = await db()
            .update(textCodes)
            .set({ sessionAt: sql`now()` })
            .where(
              and(
                eq(textCodes.id, ctx.body.codeId),
                eq(textCodes.purpose, "sign-in"),
                isNotNull(textCodes.usedAt),
                gt(textCodes.usedAt, since),
                isNull(textCodes.sessionAt),
              ),
            )
            .returning({ userId: textCodes.userId });
          if (!claimed) throw new APIError("UNAUTHORIZED", { message: "This code has expired." });
          const user = await ctx.context.internalAdapter.findUserById(claimed.userId);
          if (!user?.emailVerified)
            throw new APIError("UNAUTHORIZED", { message: "This account cannot sign in yet." });
          const session = await ctx.context.internalAdapter.createSession(user.id);
          if (!session) throw new APIError("INTERNAL_SERVER_ERROR");
          await setSessionCookie(ctx, { session, user });
          return ctx.json({ token: session.token, user: { id: user.id } });
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}
