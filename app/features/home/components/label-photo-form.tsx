import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";

/**
 * 'Label photo': a photo of the rating plate, read on our server; the page comes back with the
 * 'Add appliance' form filled from it (ADR 087). A plain multipart form: it works without
 * JavaScript; with it, the page stays in place while the label is read.
 */
export function LabelPhotoForm({ homeId, back }: { homeId: string; back: string }) {
  const action = `/homes/${homeId}/label`;
  const fetcher = useFetcher<{ ok: boolean; message?: string }>();
  const refused = fetcher.data;
  const reading = fetcher.state !== "idle";
  return (
    <fetcher.Form
      method="post"
      action={action}
      encType="multipart/form-data"
      className="grid gap-2 rounded-md border border-dashed p-3"
    >
      <input type="hidden" name="back" value={back} />
      <Field
        id={`label-photo-${homeId.slice(0, 8)}`}
        label="Label photo"
        description="A photo of the rating plate: we read the brand, model and serial number for you."
      >
        {(control) => (
          <Input
            {...control}
            type="file"
            name="photo"
            accept="image/jpeg,image/png,image/webp,image/heic,image/heif"
            capture="environment"
            required
          />
        )}
      </Field>
      {refused?.ok === false && refused.message && (
        <p role="alert" className="text-sm text-destructive">
          {refused.message}
        </p>
      )}
      <div>
        <Button type="submit" variant="outline" disabled={reading}>
          {reading ? "Reading the label..." : "Read the label"}
        </Button>
      </div>
    </fetcher.Form>
  );
}
