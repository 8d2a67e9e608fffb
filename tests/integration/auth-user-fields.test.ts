import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { account as accountTable, user } from "~/db/schema";
import { auth } from "~/lib/auth.server";
import { action as authApi } from "~/routes/api.auth";
import {
  callAuthApi,
  cookieFrom,
  createTestAccount,
  TEST_PASSWORD,
  withAuthTestDatabase,
} from "../support/auth-api";

/*
 * Better Auth's own endpoints obey the product's rules: a name as the forms accept it, an image
 * that is only ever the user's own uploaded photo, a new password as sign-up checks it. Refused
 * with a 400 and a message; nothing stored.
 */

withAuthTestDatabase();

async function signedIn() {
  const account = await createTestAccount("fields");
  const response = await callAuthApi(authApi, {
    path: "/sign-in/email",
    body: { email: account.email, password: TEST_PASSWORD },
  });
  expect(response.status).toBe(200);
  return { account, cookie: cookieFrom(response) };
}

async function stored(id: string) {
  const [row] = await db()
    .select({ name: user.name, image: user.image })
    .from(user)
    .where(eq(user.id, id));
  return row;
}

describe("update-user", () => {
  it("refuses markup in the name and a script URL as the image, and stores neither", async () => {
    const { account, cookie } = await signedIn();
    const before = await stored(account.id);
    const response = await callAuthApi(authApi, {
      path: "/update-user",
      body: { name: "<img src=x onerror=alert(1)>", image: "javascript:alert(1)" },
      cookie,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: "INVALID_NAME",
      message: "Name contains invalid characters",
    });
    expect(await stored(account.id)).toEqual(before);
  });

  it.each([
    "javascript:alert(1)",
    "https://evil.example/x.png",
    "//evil.example/profile-photos/x/profile.png",
    "/profile-photos/someone-else/profile.png",
    "data:image/png;base64,AAAA",
    "",
  ])("refuses the image %j", async (image) => {
    const { account, cookie } = await signedIn();
    const response = await callAuthApi(authApi, { path: "/update-user", body: { image }, cookie });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: "INVALID_IMAGE",
      message: "A profile photo can only be uploaded in Profile Settings",
    });
    expect((await stored(account.id)).image).toBeNull();
  });

  it("takes a name as the forms do and the user's own photo URL, or none", async () => {
    const { account, cookie } = await signedIn();
    const own = `/profile-photos/${account.id}/profile.webp?v=abc123`;
    const response = await callAuthApi(authApi, {
      path: "/update-user",
      body: { name: "  Siobhán   O’Brien-Nuñez Jr. ", image: own },
      cookie,
    });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await stored(account.id)).toEqual({ name: "Siobhán O’Brien-Nuñez Jr.", image: own });
    const cleared = await callAuthApi(authApi, {
      path: "/update-user",
      body: { image: null },
      cookie,
    });
    expect(cleared.status).toBe(200);
    expect((await stored(account.id)).image).toBeNull();
  });

  it("holds for calls on the server too (the database hook, not only the gateway)", async () => {
    const { account, cookie } = await signedIn();
    const before = await stored(account.id);
    await expect(
      auth().api.updateUser({
        body: { name: "Robert'); DROP TABLE user;--", image: "javascript:alert(1)" },
        headers: new Headers({ cookie }),
      }),
    ).rejects.toMatchObject({ statusCode: 400 });
    await expect(
      auth().api.updateUser({
        body: { image: "javascript:alert(1)" },
        headers: new Headers({ cookie }),
      }),
    ).rejects.toMatchObject({ statusCode: 400 });
    expect(await stored(account.id)).toEqual(before);
  });
});

describe("sign-up and new passwords", () => {
  it("a sign-up on the server cannot carry an image or a name the form refuses", async () => {
    const email = `fields-signup-${Date.now()}@example.com`;
    await expect(
      auth().api.signUpEmail({
        body: {
          name: "Casey Member",
          email,
          password: TEST_PASSWORD,
          image: "javascript:alert(1)",
        },
      }),
    ).rejects.toMatchObject({ statusCode: 400 });
    await expect(
      auth().api.signUpEmail({ body: { name: "<b>Casey</b>", email, password: TEST_PASSWORD } }),
    ).rejects.toMatchObject({ statusCode: 400 });
    expect(await db().select().from(user).where(eq(user.email, email))).toHaveLength(0);
  });

  it("change-password and reset-password take only a password the sign-up form would", async () => {
    const { account, cookie } = await signedIn();
    const [before] = await db()
      .select({ hash: accountTable.password })
      .from(accountTable)
      .where(eq(accountTable.userId, account.id));
    const response = await callAuthApi(authApi, {
      path: "/change-password",
      body: { currentPassword: TEST_PASSWORD, newPassword: "aaaaaaaa" },
      cookie,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: "INVALID_PASSWORD",
      message: "Password must contain uppercase, lowercase, number, and special character",
    });
    const reset = await callAuthApi(authApi, {
      path: "/reset-password",
      body: { token: "whatever", newPassword: "short" },
    });
    expect(reset.status).toBe(400);
    expect(await reset.json()).toMatchObject({ code: "INVALID_PASSWORD" });
    const [after] = await db()
      .select({ hash: accountTable.password })
      .from(accountTable)
      .where(eq(accountTable.userId, account.id));
    expect(after).toEqual(before);
  });
});
