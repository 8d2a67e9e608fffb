/** Profile photos (SPEC section 5): employees only, at most 5 MB. */
export const PROFILE_PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const PROFILE_PHOTO_TOO_LARGE = "Photo must be smaller than 5MB";
export const PROFILE_PHOTO_FAILED = "Failed to upload photo";
