import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Pencil } from "lucide-react";
import { useEffect, useState } from "react";
import { href, useFetcher } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "~/components/ui/card";
import { homeSchema, type HomeAddress } from "../schema";
import { DEFAULT_STATE, stateCode } from "../us-states";
import { HomeAddressFields } from "./form-field";

type Answer = {
  ok: boolean;
  message: string;
  home?: HomeAddress | null;
  result?: SubmissionResult<string[]>;
};

/** 'Home Address': shows the home, or the empty text; creates or updates it. */
export function HomeAddressCard({
  home,
  loading = false,
  onSaved,
}: {
  home: HomeAddress | null;
  loading?: boolean;
  onSaved?: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const fetcher = useFetcher<Answer>();
  const saving = fetcher.state !== "idle";
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;

  useEffect(() => {
    if (!answer) return;
    if (answer.ok) {
      toast.success(answer.message);
      setEditing(false);
      onSaved?.();
    } else {
      toast.error(answer.message);
    }
    // onSaved is a new function on every render of the parent.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [answer]);

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h3>Home Address</h3>
        </CardTitle>
        <CardDescription>Your property information for service requests</CardDescription>
        {!editing && !loading && (
          <CardAction>
            <Button
              variant="outline"
              size="sm"
              onClick={() => setEditing(true)}
              aria-label="Edit Home Address"
            >
              <Pencil aria-hidden="true" />
              Edit
            </Button>
          </CardAction>
        )}
      </CardHeader>
      <CardContent>
        {editing ? (
          <HomeForm
            home={home}
            fetcher={fetcher}
            saving={saving}
            onCancel={() => setEditing(false)}
          />
        ) : loading ? (
          <p className="text-sm text-muted-foreground">Loading...</p>
        ) : home ? (
          <address className="grid gap-1 text-sm not-italic">
            <span>{home.address}</span>
            <span>
              {home.city}, {home.state} {home.zipCode}
            </span>
            {home.propertyNotes && (
              <span className="text-muted-foreground">Notes: {home.propertyNotes}</span>
            )}
          </address>
        ) : (
          <p className="text-sm text-muted-foreground">
            No home address provided. Click edit to add your address.
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function HomeForm({
  home,
  fetcher,
  saving,
  onCancel,
}: {
  home: HomeAddress | null;
  fetcher: ReturnType<typeof useFetcher<Answer>>;
  saving: boolean;
  onCancel: () => void;
}) {
  // A new address starts on Georgia; a saved one on its state's code, or as it was typed when it
  // is not a state of the list (saved before the field offered the list).
  const state = home ? (stateCode(home.state) ?? home.state) : DEFAULT_STATE;
  const [form, fields] = useForm({
    id: "home-address",
    lastResult: fetcher.state === "idle" ? fetcher.data?.result : undefined,
    constraint: getZodConstraint(homeSchema),
    defaultValue: {
      address: home?.address ?? "",
      city: home?.city ?? "",
      state,
      zipCode: home?.zipCode ?? "",
      propertyNotes: home?.propertyNotes ?? "",
    },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: homeSchema }),
  });
  return (
    <fetcher.Form
      method="post"
      action={href("/account")}
      {...getFormProps(form)}
      className="grid gap-4"
    >
      <input type="hidden" name="intent" value="save-home" />
      <HomeAddressFields
        fields={fields}
        notesLabel="Property Notes"
        notesPlaceholder="Gate codes, parking instructions"
      />
      <div className="flex gap-2">
        <Button type="submit" disabled={saving}>
          {saving ? "Saving..." : "Save"}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
      </div>
    </fetcher.Form>
  );
}
