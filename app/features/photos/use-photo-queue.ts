import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { showRequestNotice } from "~/features/service-requests";
import { MAX_PHOTO_BYTES, PHOTO_TOO_LARGE } from "./limits";
import { uploadPhoto } from "./upload-photo";

export type QueuedPhoto = {
  key: string;
  file: File;
  /** A local preview (object URL), revoked when the photo leaves the queue. */
  preview: string;
  progress: number;
  state: "waiting" | "uploading" | "done" | "failed";
};

let counter = 0;

/**
 * The photos chosen in a request dialog and their upload progress. Oversize files are
 * dropped at once with the spec's notice; the server checks everything again.
 */
export function usePhotoQueue() {
  const [photos, setPhotos] = useState<QueuedPhoto[]>([]);
  // uploadAll runs across many renders and must see the latest queue, not its first one.
  const photosRef = useRef(photos);
  useEffect(() => {
    photosRef.current = photos;
  }, [photos]);

  const add = useCallback((files: FileList | File[]) => {
    const chosen = Array.from(files);
    const images = chosen.filter((file) => file.type === "" || file.type.startsWith("image/"));
    const fitting = images.filter((file) => file.size <= MAX_PHOTO_BYTES);
    if (fitting.length < images.length) {
      toast.error("File size limit", {
        description: PHOTO_TOO_LARGE,
      });
    }
    setPhotos((current) => [
      ...current,
      ...fitting.map((file) => ({
        key: `photo-${++counter}`,
        file,
        preview: URL.createObjectURL(file),
        progress: 0,
        state: "waiting" as const,
      })),
    ]);
  }, []);

  const remove = useCallback((key: string) => {
    setPhotos((current) => {
      const gone = current.find((photo) => photo.key === key);
      if (gone) URL.revokeObjectURL(gone.preview);
      return current.filter((photo) => photo.key !== key);
    });
  }, []);

  const clear = useCallback(() => {
    for (const photo of photosRef.current) URL.revokeObjectURL(photo.preview);
    setPhotos([]);
  }, []);

  const update = useCallback(
    (key: string, change: Partial<QueuedPhoto>) =>
      setPhotos((current) =>
        current.map((photo) => (photo.key === key ? { ...photo, ...change } : photo)),
      ),
    [],
  );

  /**
   * Uploads the waiting photos one after another. A photo that fails is logged and skipped
   * (SPEC section 8); the rest still go up.
   */
  const uploadAll = useCallback(
    async (requestId: string) => {
      let uploaded = 0;
      let failed = 0;
      for (const photo of photosRef.current.filter((p) => p.state === "waiting")) {
        update(photo.key, { state: "uploading", progress: 0 });
        const outcome = await uploadPhoto(requestId, photo.file, (progress) =>
          update(photo.key, { progress }),
        );
        if (outcome.ok) {
          uploaded++;
          update(photo.key, { state: "done", progress: 100 });
        } else {
          failed++;
          update(photo.key, { state: "failed" });
          console.warn(`Photo ${photo.file.name} was not uploaded (HTTP ${outcome.status})`);
          // Past the hourly photo limit the rest would be refused too: say so once and stop.
          if (outcome.status === 429) {
            showRequestNotice("photos-limited");
            break;
          }
        }
      }
      return { uploaded, failed };
    },
    [update],
  );

  return { photos, add, remove, clear, uploadAll };
}
