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
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import {
  MESSAGE_KIND_LABELS,
  MESSAGE_KINDS,
  wants,
  type NotificationPrefs,
} from "~/lib/message-kinds";
import { formatPhone } from "~/lib/phone";

export type NotificationSettings = {
  mobilePhone: string | null;
  texts: boolean;
  stopped: boolean;
  prefs: NotificationPrefs;
};

type Answer = {
  ok: boolean;
  message: string;
  notifications?: NotificationSettings;
  result?: { error?: Record<string, string[] | null> | null };
};

/** "(404) 555-0181" from "+14045550181". */
/** 'Notifications': the mobile, 'Text me about my visits', and e-mail and text per kind. */
export function NotificationsCard({
  settings,
  children,
}: {
  settings: NotificationSettings | null;
  /** Shown under the mobile number (its 'Verify', from the accounts feature). */
  children?: React.ReactNode;
}) {
  const [editing, setEditing] = useState(false);
  const fetcher = useFetcher<Answer>();
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  const current = answer?.notifications ?? settings;
  const phoneError = answer?.result?.error?.mobilePhone?.[0];

  useEffect(() => {
    if (!answer) return;
    if (answer.ok) {
      toast.success(answer.message);
      setEditing(false);
    } else toast.error(phoneError ?? answer.message);
  }, [answer, phoneError]);

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h3>Notifications</h3>
        </CardTitle>
        <CardDescription>How we tell you about your visits and your membership</CardDescription>
        {!editing && current && (
          <CardAction>
            <Button
              variant="outline"
              size="sm"
              onClick={() => setEditing(true)}
              aria-label="Edit Notifications"
            >
              <Pencil aria-hidden="true" />
              Edit
            </Button>
          </CardAction>
        )}
      </CardHeader>
      <CardContent>
        {!current ? (
          <p className="text-sm text-muted-foreground">Loading...</p>
        ) : !editing ? (
          <>
            <dl className="grid gap-1 text-sm">
              <div className="flex flex-wrap gap-x-2">
                <dt className="text-muted-foreground">Mobile number:</dt>
                <dd>{current.mobilePhone ? formatPhone(current.mobilePhone) : "None yet"}</dd>
              </div>
              <div className="flex flex-wrap gap-x-2">
                <dt className="text-muted-foreground">Texts about your visits:</dt>
                <dd>{current.texts ? "On" : current.stopped ? "Off (you replied STOP)" : "Off"}</dd>
              </div>
            </dl>
            {children && <div className="mt-3">{children}</div>}
          </>
        ) : (
          <fetcher.Form
            method="post"
            action={href("/account")}
            className="grid gap-4"
            // A fresh form after each save shows what was saved.
            key={JSON.stringify(current)}
          >
            <div className="grid gap-2">
              <Label htmlFor="notifications-mobile">Mobile number</Label>
              <Input
                id="notifications-mobile"
                name="mobilePhone"
                type="tel"
                autoComplete="tel"
                defaultValue={formatPhone(current.mobilePhone) ?? ""}
                aria-invalid={phoneError ? true : undefined}
                aria-describedby={phoneError ? "notifications-mobile-error" : undefined}
              />
              {phoneError && (
                <p id="notifications-mobile-error" className="text-sm text-destructive">
                  {phoneError}
                </p>
              )}
            </div>
            <div className="flex items-start gap-2">
              <input
                id="notifications-text-me"
                name="textMe"
                type="checkbox"
                defaultChecked={current.texts}
                className="mt-1 size-4 accent-primary"
              />
              <label htmlFor="notifications-text-me" className="text-sm">
                Text me about my visits
                <span className="block text-muted-foreground">
                  {current.stopped
                    ? "You replied STOP, so texts are off. Tick this to turn them on again."
                    : "Message and data rates may apply. Reply STOP to any text to stop them."}
                </span>
              </label>
            </div>
            <MessageKindsTable prefs={current.prefs} />
            <div className="flex gap-2">
              <Button
                type="submit"
                name="intent"
                value="save-notifications"
                disabled={fetcher.state !== "idle"}
              >
                {fetcher.state !== "idle" ? "Saving..." : "Save"}
              </Button>
              <Button type="button" variant="outline" onClick={() => setEditing(false)}>
                Cancel
              </Button>
            </div>
          </fetcher.Form>
        )}
      </CardContent>
    </Card>
  );
}

/** E-mail and text, ticked or not, for each kind of message. */
function MessageKindsTable({ prefs }: { prefs: NotificationSettings["prefs"] }) {
  return (
    <table className="w-full text-sm">
      <caption className="sr-only">E-mail and text for each kind of message</caption>
      <thead>
        <tr className="text-left">
          <th scope="col" className="py-1 font-medium">
            Message
          </th>
          <th scope="col" className="w-16 py-1 text-center font-medium">
            E-mail
          </th>
          <th scope="col" className="w-16 py-1 text-center font-medium">
            Text
          </th>
        </tr>
      </thead>
      <tbody>
        {MESSAGE_KINDS.map((kind) => (
          <tr key={kind} className="border-t">
            <th scope="row" className="py-2 pr-2 text-left font-normal">
              {MESSAGE_KIND_LABELS[kind]}
            </th>
            {(["email", "text"] as const).map((channel) => (
              <td key={channel} className="py-2 text-center">
                <input
                  type="checkbox"
                  name={`${kind}-${channel}`}
                  aria-label={`${MESSAGE_KIND_LABELS[kind]} by ${channel === "email" ? "e-mail" : "text"}`}
                  defaultChecked={wants(prefs, kind, channel)}
                  className="size-4 accent-primary"
                />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
