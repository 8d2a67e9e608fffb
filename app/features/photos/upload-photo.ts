import { href } from "react-router";

/*
 * Browser side of photo uploads: one photo per request, through XMLHttpRequest because fetch
 * cannot report upload progress.
 */

export type UploadOutcome = { ok: boolean; status: number };

export function uploadPhoto(
  requestId: string,
  file: File,
  onProgress: (percent: number) => void,
): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(
      "POST",
      href("/dashboard/requests/:requestId/photos", { requestId: encodeURIComponent(requestId) }),
    );
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable && event.total > 0) {
        onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
      }
    });
    xhr.addEventListener("load", () => {
      const ok = xhr.status >= 200 && xhr.status < 300;
      if (ok) onProgress(100);
      resolve({ ok, status: xhr.status });
    });
    xhr.addEventListener("error", () => resolve({ ok: false, status: 0 }));
    xhr.addEventListener("abort", () => resolve({ ok: false, status: 0 }));
    const body = new FormData();
    body.append("photo", file, file.name);
    xhr.send(body);
  });
}
