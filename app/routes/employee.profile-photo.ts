import { answer } from "~/lib/form-answer.server";
import type { Route } from "./+types/employee.profile-photo";
import { guardStaff } from "~/features/employee/guard.server";
import {
  PROFILE_PHOTO_FAILED,
  PROFILE_PHOTO_MAX_BYTES,
  PROFILE_PHOTO_TOO_LARGE,
} from "~/features/employee/profile-photo";
import { saveProfilePhoto } from "~/features/employee/profile-photo.server";
import {
  PhotoRejectedError,
  processPhoto,
  type EncodedImage,
} from "~/features/photos/image.server";
import { MultipartError, readMultipart } from "~/features/photos/multipart.server";
import { logger } from "~/lib/logger.server";

/**
 * The employee's profile photo (SPEC sections 2 and 5): images only, under 5 MB, re-encoded
 * (no EXIF or GPS survives) to a square picture, stored at the user id plus 'profile.' plus the
 * extension, and shown to customers on their appointment cards.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const guard = await guardStaff(request);
  if (guard.denied) return guard.denied;
  const employeeId = guard.employee.id;

  let photo: EncodedImage | undefined;
  let tooLarge = false;
  try {
    await readMultipart(request, {
      maxFileBytes: PROFILE_PHOTO_MAX_BYTES,
      maxFiles: 1,
      maxTotalBytes: PROFILE_PHOTO_MAX_BYTES + 64 * 1024,
      async onFile(file) {
        // The square, re-encoded version: what an avatar shows, and nothing of the original.
        if (file.field === "photo") photo = (await processPhoto(file.data)).thumbnail;
      },
      async onOversize() {
        tooLarge = true;
      },
    });
  } catch (error) {
    if (error instanceof MultipartError && error.status === 413) {
      tooLarge = true;
    } else {
      const rejected = error instanceof PhotoRejectedError || error instanceof MultipartError;
      logger.warn(
        { employeeId, err: (error as Error).message },
        rejected ? "profile photo refused" : "profile photo upload failed",
      );
      return answer(
        { ok: false as const, message: PROFILE_PHOTO_FAILED },
        context,
        // A body that is not a whole form is the client's mistake (400); a file that is not a
        // photo we can read, 415.
        { status: error instanceof MultipartError ? error.status : rejected ? 415 : 500 },
      );
    }
  }
  if (tooLarge) {
    return answer({ ok: false as const, message: PROFILE_PHOTO_TOO_LARGE }, context, {
      status: 413,
    });
  }
  if (!photo) {
    return answer({ ok: false as const, message: PROFILE_PHOTO_FAILED }, context, { status: 400 });
  }
  try {
    const url = await saveProfilePhoto(employeeId, photo);
    logger.info({ employeeId }, "profile photo updated");
    return { ok: true as const, url };
  } catch (error) {
    logger.error({ employeeId, err: (error as Error).message }, "profile photo upload failed");
    return answer({ ok: false as const, message: PROFILE_PHOTO_FAILED }, context, { status: 500 });
  }
}
