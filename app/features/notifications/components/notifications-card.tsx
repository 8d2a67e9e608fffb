import { Pencil } from "lucide-react";
import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
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
import {
  NotificationsForm,
  NotificationsSummary,
  type NotificationSettings,
  type NotificationsAnswer,
} from "./notifications-form";

export type { NotificationSettings };

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
  const fetcher = useFetcher<NotificationsAnswer>();
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
            <NotificationsSummary current={current} />
            {children && <div className="mt-3">{children}</div>}
          </>
        ) : (
          <NotificationsForm
            fetcher={fetcher}
            current={current}
            phoneError={phoneError}
            onCancel={() => setEditing(false)}
          />
        )}
      </CardContent>
    </Card>
  );
}
