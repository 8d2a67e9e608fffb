import { CameraIcon } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { href, useFetcher } from "react-router";
import { toast } from "sonner";
import { Avatar, AvatarFallback, AvatarImage } from "~/components/ui/avatar";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { PROFILE_PHOTO_MAX_BYTES, PROFILE_PHOTO_TOO_LARGE } from "../profile-photo";

type UploadAnswer = { ok: true; url: string } | { ok: false; message: string };

/**
 * The employee's 'Profile Photo' block inside Profile Settings (SPEC section 2): the photo (or
 * the first letter of the first name), and a button that uploads a new one at once.
 */
export function ProfilePhotoSection({
  firstName,
  email,
  photoUrl,
}: {
  firstName: string | null;
  email: string;
  photoUrl: string | null;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const fetcher = useFetcher<UploadAnswer>();
  const uploading = fetcher.state !== "idle";
  const initial = (firstName || email).charAt(0).toUpperCase();

  const handled = useRef<unknown>(null);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    if (fetcher.data.ok) toast.success("Profile photo updated successfully");
    else toast.error(fetcher.data.message);
  }, [fetcher.state, fetcher.data]);

  function upload(file: File | undefined) {
    if (input.current) input.current.value = "";
    if (!file) return;
    if (!file.type.startsWith("image/")) {
      toast.error("Please choose an image file");
      return;
    }
    if (file.size > PROFILE_PHOTO_MAX_BYTES) {
      toast.error(PROFILE_PHOTO_TOO_LARGE);
      return;
    }
    const body = new FormData();
    body.append("photo", file, file.name);
    fetcher.submit(body, {
      method: "post",
      action: href("/employee/profile-photo"),
      encType: "multipart/form-data",
    });
  }

  return (
    <Card className="gap-4 py-4">
      <CardHeader>
        <CardTitle asChild>
          <h3 className="text-base">Profile Photo</h3>
        </CardTitle>
        <CardDescription id={`${id}-hint`}>
          Upload a professional photo that customers will see
        </CardDescription>
      </CardHeader>
      <CardContent className="flex items-center gap-4">
        <Avatar className="size-16 text-xl">
          {photoUrl && <AvatarImage src={photoUrl} alt="Your profile photo" />}
          <AvatarFallback className="text-xl" aria-label="No profile photo yet">
            {initial}
          </AvatarFallback>
        </Avatar>
        <input
          ref={input}
          id={`${id}-file`}
          type="file"
          accept="image/*"
          className="sr-only"
          tabIndex={-1}
          aria-label="Choose a profile photo"
          onChange={(event) => upload(event.target.files?.[0])}
        />
        <Button
          type="button"
          variant="outline"
          disabled={uploading}
          aria-describedby={`${id}-hint`}
          onClick={() => input.current?.click()}
        >
          <CameraIcon aria-hidden="true" />
          {uploading ? "Uploading..." : photoUrl ? "Change Photo" : "Upload Photo"}
        </Button>
      </CardContent>
    </Card>
  );
}
