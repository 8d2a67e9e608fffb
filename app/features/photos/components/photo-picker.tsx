import { ImagePlus, X } from "lucide-react";
import { useId } from "react";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Progress } from "~/components/ui/progress";
import { cn } from "~/lib/utils";
import type { usePhotoQueue } from "../use-photo-queue";

function formatSize(bytes: number) {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

const STATE_TEXT = {
  waiting: "Ready to upload",
  uploading: "Uploading",
  done: "Uploaded",
  failed: "Not uploaded",
} as const;

/**
 * The photo field of the request dialogs: images only, several at once, each listed with a
 * preview and its upload progress. Without JavaScript it is a plain file input posted with
 * the form (`name`); with JavaScript the files are kept in the queue and uploaded one by one.
 */
export function PhotoPicker({
  queue,
  name,
  hydrated,
  disabled,
  label = "Photos",
}: {
  queue: ReturnType<typeof usePhotoQueue>;
  name: string;
  hydrated: boolean;
  disabled?: boolean;
  label?: string;
}) {
  const inputId = useId();
  const hintId = useId();
  const listTitleId = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={inputId}>{label}</Label>
      <div className="relative">
        <input
          id={inputId}
          type="file"
          accept="image/*"
          multiple
          // With JavaScript the queue owns the files; the input only picks them.
          name={hydrated ? undefined : name}
          disabled={disabled}
          aria-describedby={hintId}
          onChange={(event) => {
            if (event.target.files?.length) queue.add(event.target.files);
            event.target.value = "";
          }}
          className={cn(
            "block w-full cursor-pointer rounded-md border border-dashed border-input bg-background px-3 py-3 text-sm text-muted-foreground",
            "file:mr-3 file:rounded-md file:border-0 file:bg-secondary file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-secondary-foreground",
            "focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:outline-hidden disabled:cursor-not-allowed disabled:opacity-50",
          )}
        />
      </div>
      <p id={hintId} className="flex items-center gap-1.5 text-xs text-muted-foreground">
        <ImagePlus aria-hidden="true" className="size-3.5" />
        Images only (JPEG, PNG, WebP, HEIC), up to 10 MB each.
      </p>
      {queue.photos.length > 0 && (
        <section aria-labelledby={listTitleId} className="grid gap-2">
          <h3 id={listTitleId} className="text-sm font-medium">
            Files to upload
          </h3>
          <ul aria-labelledby={listTitleId} className="grid gap-2">
            {queue.photos.map((photo) => (
              <li
                key={photo.key}
                className="flex items-center gap-3 rounded-md border p-2"
                data-state={photo.state}
              >
                <img
                  src={photo.preview}
                  alt={`Preview of ${photo.file.name}`}
                  className="size-12 shrink-0 rounded object-cover"
                  width={48}
                  height={48}
                />
                <div className="grid min-w-0 flex-1 gap-1">
                  <p className="flex justify-between gap-2 text-sm">
                    <span className="truncate font-medium">{photo.file.name}</span>
                    <span className="shrink-0 text-muted-foreground">
                      {formatSize(photo.file.size)}
                    </span>
                  </p>
                  <Progress
                    value={photo.progress}
                    aria-label={`Upload progress for ${photo.file.name}`}
                    className={cn(photo.state === "failed" && "bg-destructive/20")}
                  />
                  <p className="text-xs text-muted-foreground" aria-live="polite">
                    {STATE_TEXT[photo.state]}
                    {photo.state === "uploading" ? ` ${photo.progress}%` : ""}
                  </p>
                </div>
                {photo.state === "waiting" && (
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    disabled={disabled}
                    onClick={() => queue.remove(photo.key)}
                    aria-label={`Remove ${photo.file.name}`}
                  >
                    <X aria-hidden="true" />
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
