import { APIError } from "better-auth/api";
import { z } from "zod";
import { newPasswordSchema, tidyName } from "./validation";

/*
 * What a person may change about their own account through any Better Auth endpoint
 * (update-user, sign-up, reset-password, change-password): the same rules as the product's
 * forms, checked before anything is stored (ADR 005). Profile Settings writes first and last
 * name itself; Better Auth only ever holds the display name built from them.
 */

/** The display name: a first and a last name as sign-up accepts them (ADR 020), joined. */
export const displayNameSchema = z
  .string({ error: "Name is required" })
  .transform(tidyName)
  .pipe(
    z
      .string()
      .min(1, "Name is required")
      .min(2, "Name must be at least 2 characters")
      .max(101, "Name must be at most 101 characters")
      .regex(/^[\p{L}\p{M} '’ʼ.\-‐]+$/u, "Name contains invalid characters")
      .regex(/\p{L}/u, "Name contains invalid characters"),
  );

export const IMAGE_MESSAGE = "A profile photo can only be uploaded in Profile Settings";

/** The product's own profile-photo URL for this user (profile-photo.server.ts), or nothing. */
export function isOwnProfilePhoto(image: unknown, userId: string | null) {
  if (image === null || image === undefined) return true;
  if (typeof image !== "string" || !userId) return false;
  const escaped = userId.replace(/[^A-Za-z0-9_-]/g, "");
  if (escaped !== userId) return false;
  return new RegExp(
    `^/profile-photos/${escaped}/profile\\.(jpg|webp|png)(\\?v=[0-9a-z]{1,20})?$`,
  ).test(image);
}

function refuse(code: string, message: string): never {
  throw new APIError("BAD_REQUEST", { code, message });
}

/**
 * The fields of a user row about to be created or updated through Better Auth. The name is
 * stored tidied; anything else that is not ours to take is refused with a 400.
 */
export function checkUserFields<T extends Record<string, unknown>>(
  data: T,
  userId: string | null,
): T {
  const checked: Record<string, unknown> = { ...data };
  if (data.name !== undefined) {
    const name = displayNameSchema.safeParse(data.name);
    if (!name.success) refuse("INVALID_NAME", name.error.issues[0].message);
    checked.name = name.data;
  }
  if (data.image !== undefined && !isOwnProfilePhoto(data.image, userId))
    refuse("INVALID_IMAGE", IMAGE_MESSAGE);
  return checked as T;
}

/** Where a Better Auth endpoint takes a new password from the request body. */
const NEW_PASSWORD_FIELDS: Record<string, string> = {
  "/sign-up/email": "password",
  "/reset-password": "newPassword",
  "/change-password": "newPassword",
};

/** A new password follows the sign-up form's rules whichever endpoint sets it. */
export function checkNewPassword(path: string, body: unknown) {
  const field = NEW_PASSWORD_FIELDS[path];
  if (!field || !body || typeof body !== "object") return;
  const value = (body as Record<string, unknown>)[field];
  if (value === undefined) return; // Better Auth refuses a missing one itself
  const checked = newPasswordSchema.safeParse(value);
  if (!checked.success) refuse("INVALID_PASSWORD", checked.error.issues[0].message);
}

/** Sign-up and update-user, checked from the request body before Better Auth reads it. */
export function checkUserBody(path: string, body: unknown, userId: string | null) {
  if (path !== "/update-user" && path !== "/sign-up/email") return;
  if (!body || typeof body !== "object" || Array.isArray(body)) return;
  const { name, image } = body as Record<string, unknown>;
  checkUserFields({ name, image }, path === "/update-user" ? userId : null);
}
