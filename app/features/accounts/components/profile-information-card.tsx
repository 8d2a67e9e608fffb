import { Pencil } from "lucide-react";
import { useEffect, useState } from "react";
import { href, useFetcher } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card, CardAction, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import type { SessionUser } from "~/lib/session.server";
import { formatPhone } from "~/lib/phone";
import { personName } from "~/lib/names";

type Answer = { ok: boolean; message: string };

/** Name and phone, read-only ('Not provided' when empty) until 'Edit'. */
export function ProfileInformationCard({ user }: { user: SessionUser }) {
  const [editing, setEditing] = useState(false);
  const fetcher = useFetcher<Answer>();
  const saving = fetcher.state !== "idle";
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  const name = personName(user.firstName, user.lastName);

  useEffect(() => {
    if (!answer) return;
    if (answer.ok) {
      toast.success("Profile updated successfully");
      setEditing(false);
    } else {
      toast.error("Failed to update profile");
    }
  }, [answer]);

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h3>Profile Information</h3>
        </CardTitle>
        {!editing && (
          <CardAction>
            <Button
              variant="outline"
              size="sm"
              onClick={() => setEditing(true)}
              aria-label="Edit Profile Information"
            >
              <Pencil aria-hidden="true" />
              Edit
            </Button>
          </CardAction>
        )}
      </CardHeader>
      <CardContent>
        {editing ? (
          <fetcher.Form method="post" action={href("/account")} className="grid gap-4">
            <input type="hidden" name="intent" value="update-profile" />
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="grid gap-2">
                <Label htmlFor="profile-first-name">First Name</Label>
                <Input
                  id="profile-first-name"
                  name="firstName"
                  defaultValue={user.firstName ?? ""}
                  autoComplete="given-name"
                  maxLength={50}
                  autoFocus
                />
              </div>
              <div className="grid gap-2">
                <Label htmlFor="profile-last-name">Last Name</Label>
                <Input
                  id="profile-last-name"
                  name="lastName"
                  defaultValue={user.lastName ?? ""}
                  autoComplete="family-name"
                  maxLength={50}
                />
              </div>
            </div>
            <div className="grid gap-2">
              <Label htmlFor="profile-phone">Phone Number</Label>
              <Input
                id="profile-phone"
                name="phone"
                type="tel"
                defaultValue={formatPhone(user.phone) ?? ""}
                placeholder="(555) 123-4567"
                autoComplete="tel"
                maxLength={30}
              />
            </div>
            <div className="flex gap-2">
              <Button type="submit" disabled={saving}>
                {saving ? "Saving..." : "Save"}
              </Button>
              <Button
                type="button"
                variant="outline"
                onClick={() => setEditing(false)}
                disabled={saving}
              >
                Cancel
              </Button>
            </div>
          </fetcher.Form>
        ) : (
          <dl className="grid gap-3 text-sm sm:grid-cols-2">
            <div>
              <dt className="font-medium text-muted-foreground">Name</dt>
              <dd>{name || "Not provided"}</dd>
            </div>
            <div>
              <dt className="font-medium text-muted-foreground">Phone</dt>
              <dd>{formatPhone(user.phone) || "Not provided"}</dd>
            </div>
          </dl>
        )}
      </CardContent>
    </Card>
  );
}
