import { href, type FetcherWithComponents } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import {
  MESSAGE_KIND_LABELS,
  MESSAGE_KINDS,
  wants,
  type NotificationPrefs,
} from "~/lib/message-kinds";
import { formatPhone } from "~/lib/phone";

/** The parts of the Notifications card (notifications-card.tsx): what is set, and its form. */

export type NotificationSettings = {
  mobilePhone: string | null;
  texts: boolean;
  stopped: boolean;
  prefs: NotificationPrefs;
};

export type NotificationsAnswer = {
  ok: boolean;
  message: string;
  notifications?: NotificationSettings;
  result?: { error?: Record<string, string[] | null> | null };
};

/** The mobile number and whether texts are on. */
export function NotificationsSummary({ current }: { current: NotificationSettings }) {
  return (
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
  );
}

/** The mobile, 'Text me about my visits', and e-mail and text per kind; posts to /account. */
export function NotificationsForm({
  fetcher,
  current,
  phoneError,
  onCancel,
}: {
  fetcher: FetcherWithComponents<NotificationsAnswer>;
  current: NotificationSettings;
  phoneError: string | undefined;
  onCancel(): void;
}) {
  return (
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
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </fetcher.Form>
  );
}

/** A checkbox for e-mail and one for text, for each kind of message. */
function MessageKindsTable({ prefs }: { prefs: NotificationPrefs }) {
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
