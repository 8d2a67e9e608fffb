import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { timestampLabel } from "~/lib/business-calendar";

export type MessageRow = {
  id: string;
  at: string;
  channel: "E-mail" | "Text";
  subject: string;
  status: string;
};

/** 'Messages': every e-mail and text written for the customer, newest first. */
export function MessagesList({ messages }: { messages: MessageRow[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Messages</h2>
        </CardTitle>
        <CardDescription>Every e-mail and text sent to this customer, newest first</CardDescription>
      </CardHeader>
      <CardContent>
        {messages.length === 0 ? (
          <p className="text-sm text-muted-foreground">No messages yet.</p>
        ) : (
          <ul className="grid gap-3" aria-label="Messages sent">
            {messages.map((message) => (
              <li key={message.id} className="grid gap-1 border-b pb-3 text-sm last:border-b-0">
                <p className="flex flex-wrap gap-x-3 gap-y-1 text-muted-foreground">
                  <time dateTime={message.at}>{timestampLabel(message.at)} ET</time>
                  <span>{message.channel}</span>
                  <span>Status: {message.status}</span>
                </p>
                <p className="break-words">{message.subject}</p>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
