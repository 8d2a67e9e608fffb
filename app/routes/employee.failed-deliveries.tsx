import { Form, Link } from "react-router";
import type { Route } from "./+types/employee.failed-deliveries";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { StaffHeader } from "~/features/employee/components/staff-header";
import { env } from "~/lib/env.server";
import type { FormAnswer } from "~/lib/form-answer";
import { answer } from "~/lib/form-answer.server";
import { logger } from "~/lib/logger.server";
import { failedDeliveries, retryFailedDelivery } from "~/lib/outbox.server";
import { requireEmployee, requireEmployeeForAction } from "~/lib/session.server";
import { UUID_PATTERN } from "~/lib/uuid";
import { BUSINESS_TIME_ZONE } from "~/lib/business-calendar";

/*
 * 'Failed deliveries' (issue 39): e-mails, texts, webhook calls and payments jobs the outbox gave
 * up on after OUTBOX_MAX_ATTEMPTS tries, with what went wrong last. 'Retry' makes one due again
 * with a fresh count of attempts; it is answered in place (ADR 073), with or without JavaScript.
 */

export async function loader({ request }: Route.LoaderArgs) {
  const employee = await requireEmployee(request);
  return {
    employee,
    maxAttempts: env().outbox.maxAttempts,
    items: (await failedDeliveries()).map((item) => ({
      ...item,
      createdAt: item.createdAt.toISOString(),
      failedAt: item.failedAt.toISOString(),
    })),
  };
}

type RetryAnswer = FormAnswer<{ id: string }>;

export async function action({ request, context }: Route.ActionArgs) {
  const employee = await requireEmployeeForAction(request);
  const form = await request.formData();
  const id = String(form.get("id") ?? "");
  if (form.get("intent") !== "retry" || !UUID_PATTERN.test(id)) {
    return answer<RetryAnswer>({ ok: false, id, message: "Unknown action." }, context, {
      status: 400,
    });
  }
  const retried = await retryFailedDelivery(id);
  logger.info({ outboxId: id, staffId: employee.id, retried }, "failed delivery retried");
  return answer<RetryAnswer>(
    retried
      ? { ok: true, id, message: "Retrying now: it leaves this list once delivered." }
      : { ok: false, id, message: "This delivery is no longer waiting here." },
    context,
    { status: retried ? 200 : 409 },
  );
}

export function meta() {
  return [{ title: "Failed deliveries" }];
}

const when = (iso: string) =>
  new Date(iso).toLocaleString("en-US", {
    timeZone: BUSINESS_TIME_ZONE,
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
  });

export default function FailedDeliveries({ loaderData, actionData }: Route.ComponentProps) {
  const { employee, items, maxAttempts } = loaderData;
  return (
    <div className="min-h-dvh bg-muted/40">
      <StaffHeader employee={employee} width="max-w-3xl" />
      <main className="mx-auto grid max-w-3xl gap-4 px-4 py-6">
        <p>
          <Link to="/employee" className="text-sm underline underline-offset-4">
            Back to the dashboard
          </Link>
        </p>
        <h1 className="text-2xl font-semibold">Failed deliveries</h1>
        <p className="text-sm text-muted-foreground">
          E-mails, texts and payments jobs given up after {maxAttempts} tries. Fix the cause (a mail
          server, an address, Stripe), then retry.
        </p>
        {actionData?.message ? (
          <p role={actionData.ok ? "status" : "alert"} className="text-sm">
            {actionData.message}
          </p>
        ) : null}
        {items.length === 0 ? (
          <p>Nothing is waiting: every delivery went through or is still being tried.</p>
        ) : (
          <ul className="grid gap-3" aria-label="Failed deliveries">
            {items.map((item) => (
              <li key={item.id}>
                <Card>
                  <CardHeader>
                    <CardTitle asChild>
                      <h2 className="text-base">{item.summary}</h2>
                    </CardTitle>
                  </CardHeader>
                  <CardContent className="grid gap-2 text-sm">
                    <p>
                      Written {when(item.createdAt)}; given up {when(item.failedAt)} after{" "}
                      {item.attempts} tries.
                    </p>
                    {item.lastError ? (
                      <p className="break-words text-muted-foreground">
                        Last error: {item.lastError}
                      </p>
                    ) : null}
                    <Form method="post">
                      <input type="hidden" name="intent" value="retry" />
                      <input type="hidden" name="id" value={item.id} />
                      <Button type="submit" aria-label={`Retry: ${item.summary}`}>
                        Retry
                      </Button>
                    </Form>
                  </CardContent>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </main>
    </div>
  );
}
