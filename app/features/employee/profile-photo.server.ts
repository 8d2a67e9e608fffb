import { href } from "react-router";
import { and, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { profiles } from "~/db/schema";
import { storage } from "~/lib/storage.server";

/*
 * Employees' profile photos are public (docs/design.md decision 4): customers see them on their
 * appointment cards. One per employee, stored as the user id plus 'profile.' plus the extension
 * (SPEC section 3), overwritten by a new upload.
 */

const FILE_NAME = /^profile\.(jpg|webp|png)$/;
const USER_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

export function profilePhotoKey(userId: string, fileName: string) {
  return `profile-photos/${userId}/${fileName}`;
}

/** The stored photo's key for a public URL's parts, or null when they cannot name one. */
export function profilePhotoKeyFor(userId: string, fileName: string) {
  return USER_ID.test(userId) && FILE_NAME.test(fileName)
    ? profilePhotoKey(userId, fileName)
    : null;
}

/**
 * Stores an already re-encoded image as the employee's photo and records its public URL. The URL
 * carries a version so browsers and caches fetch the new picture at once.
 */
export async function saveProfilePhoto(
  userId: string,
  image: { data: Buffer; contentType: string; extension: string },
) {
  const fileName = `profile.${image.extension}`;
  await storage().put(profilePhotoKey(userId, fileName), image.data, image.contentType);
  const url = `${href("/profile-photos/:userId/:file", { userId, file: fileName })}?v=${Date.now().toString(36)}`;
  const updated = await db()
    .update(profiles)
    .set({ profilePhotoUrl: url })
    .where(and(eq(profiles.userId, userId), eq(profiles.isEmployee, true)))
    .returning({ userId: profiles.userId });
  if (updated.length === 0) throw new Error("not an employee");
  return url;
}
