import { Form, Link, useSearchParams } from "react-router";
import { Badge } from "~/components/ui/badge";
import { CARDS_BELOW_MD as cards } from "~/components/ui/table-cards";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { marked } from "~/components/ui/marked-field";
import { NativeSelect } from "~/components/ui/native-select";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "~/components/ui/table";
import { isOpenVisit, VISIT_STATUS_LABELS } from "~/features/visits";
import { hoursText } from "~/lib/hours";
import { minuteLabel, plainDate } from "~/lib/business-calendar";
import type { MemberVisitRow, StatementPage } from "../types";
import { type Outcome, OutcomeLine, useBusy } from "./staff-membership-forms";

/**
 * 'Previous page' and 'Next page' of the visits: plain links (no JavaScript needed) that keep
 * the statement's page.
 */
function VisitsPager({ page }: { page: StatementPage }) {
  const [params] = useSearchParams();
  if (page.pages <= 1) return null;
  const to = (n: number) => {
    const next = new URLSearchParams(params);
    if (n === 1) next.delete("vpage");
    else next.set("vpage", String(n));
    const search = next.toString();
    return search ? `?${search}` : ".";
  };
  return (
    <nav aria-label="Pages of visits" className="flex flex-wrap items-center gap-3 text-sm">
      {page.page > 1 ? (
        <Button asChild variant="outline" size="sm">
          <Link to={to(page.page - 1)} preventScrollReset>
            Previous page
          </Link>
        </Button>
      ) : null}
      <span>
        Page {page.page} of {page.pages}
      </span>
      {page.page < page.pages ? (
        <Button asChild variant="outline" size="sm">
          <Link to={to(page.page + 1)} preventScrollReset>
            Next page
          </Link>
        </Button>
      ) : null}
    </nav>
  );
}

export function VisitsCard({
  visits,
  page,
  today,
  outcome,
  correctKeys,
}: {
  visits: MemberVisitRow[];
  page: StatementPage;
  today: string;
  outcome: Outcome;
  correctKeys: Record<string, string>;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Visits ({page.total})</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <OutcomeLine outcome={outcome} intent="complete" />
        <OutcomeLine outcome={outcome} intent="correct-time" />
        {visits.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No visits yet. Create an appointment for this member to book one.
          </p>
        ) : (
          <Table containerLabel="Visits" className={cards.table}>
            <TableHeader className={cards.header}>
              <TableRow>
                <TableHead scope="col">Visit</TableHead>
                <TableHead scope="col">Block</TableHead>
                <TableHead scope="col">Status</TableHead>
                <TableHead scope="col">Time worked</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody className={cards.body}>
              {visits.map((visit) => (
                <TableRow key={visit.appointmentId} className={`align-top ${cards.row}`}>
                  <TableCell className={`font-medium whitespace-normal ${cards.cell}`}>
                    {plainDate(visit.scheduledDate)}
                    <br />
                    {minuteLabel(visit.startTime)} - {minuteLabel(visit.endTime)}
                  </TableCell>
                  <TableCell
                    data-label="Block"
                    className={`whitespace-normal ${cards.cell} ${cards.labelled}`}
                  >
                    {hoursText(visit.blockMinutes)}
                    {visit.isExtra && (
                      <>
                        {" "}
                        <Badge variant="secondary">Extra visit: $150</Badge>
                      </>
                    )}
                  </TableCell>
                  <TableCell
                    data-label="Status"
                    data-status={visit.appointmentStatus}
                    className={`${cards.cell} ${cards.labelled}`}
                  >
                    {VISIT_STATUS_LABELS[visit.appointmentStatus]}
                  </TableCell>
                  <TableCell
                    data-label="Time worked"
                    className={`${cards.cell} ${cards.labelled} whitespace-normal`}
                  >
                    {visit.appointmentStatus === "completed" && visit.minutesWorked !== null ? (
                      <div className="grid gap-2">
                        <span>{hoursText(visit.minutesWorked)}</span>
                        <TaskOutcomes tasks={visit.tasks} />
                        {visit.isExtra ? null : (
                          <CorrectForm
                            visit={visit}
                            actionKey={correctKeys[visit.appointmentId] ?? ""}
                            outcome={outcome}
                          />
                        )}
                      </div>
                    ) : isOpenVisit(visit.appointmentStatus) && visit.scheduledDate <= today ? (
                      <CompleteForm visit={visit} outcome={outcome} />
                    ) : (
                      <span className="text-muted-foreground">-</span>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <VisitsPager page={page} />
      </CardContent>
    </Card>
  );
}

function TaskOutcomes({ tasks }: { tasks: MemberVisitRow["tasks"] }) {
  if (!tasks.some((t) => t.outcome)) return null;
  return (
    <ul className="text-sm">
      {tasks.map((task) => (
        <li key={task.id}>
          {task.outcome === "done" ? "Done" : "Not done"}: {task.description}
        </li>
      ))}
    </ul>
  );
}

function workedChoices(block: number) {
  return Array.from({ length: block / 15 }, (_, i) => (i + 1) * 15);
}

/** Finishing a visit asks, per task, 'Done' or 'Not done' (ADR 046), and the time worked. */
function CompleteForm({ visit, outcome }: { visit: MemberVisitRow; outcome: Outcome }) {
  const busy = useBusy("complete");
  const id = `worked-${visit.appointmentId}`;
  const worked = marked(outcome, "complete", "minutesWorked", id, {
    appointmentId: visit.appointmentId,
  });
  return (
    <Form method="post" className="grid gap-2">
      <input type="hidden" name="intent" value="complete" />
      <input type="hidden" name="appointmentId" value={visit.appointmentId} />
      {visit.tasks.map((task) => (
        <fieldset key={task.id} className="grid gap-1">
          <legend className="text-sm font-medium">{task.description}</legend>
          <div className="flex gap-4">
            <label className="flex items-center gap-1.5 text-sm">
              <input type="radio" name={`task-${task.id}`} value="done" required />
              Done
            </label>
            <label className="flex items-center gap-1.5 text-sm">
              <input type="radio" name={`task-${task.id}`} value="not_done" required />
              Not done
            </label>
          </div>
        </fieldset>
      ))}
      <div className="flex flex-wrap items-end gap-2">
        <div className="grid gap-1.5">
          <Label htmlFor={id}>Time worked on {plainDate(visit.scheduledDate)}</Label>
          <NativeSelect
            id={id}
            name="minutesWorked"
            defaultValue={String(visit.blockMinutes)}
            {...worked.props}
          >
            {workedChoices(visit.blockMinutes).map((m) => (
              <option key={m} value={m}>
                {hoursText(m)}
              </option>
            ))}
          </NativeSelect>
          {worked.message}
        </div>
        <Button type="submit" size="sm" disabled={busy}>
          Complete Visit
        </Button>
      </div>
    </Form>
  );
}

/**
 * 'Correct time worked': a new entry in the hours ledger with its reason, never an edit. One
 * per completed visit (a year holds up to 24), so its controls carry app.css's short classes
 * (`.field`, `.btn`), as 'Today' does, rather than each control's utility lists (ADR 077).
 */
function CorrectForm({
  visit,
  actionKey,
  outcome,
}: {
  visit: MemberVisitRow;
  actionKey: string;
  outcome: Outcome;
}) {
  const busy = useBusy("correct-time");
  const id = `correct-${visit.appointmentId}`;
  const ours = { appointmentId: visit.appointmentId };
  const worked = marked(outcome, "correct-time", "minutesWorked", id, ours);
  const reason = marked(outcome, "correct-time", "reason", `${id}-reason`, ours);
  return (
    <Form method="post" className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="intent" value="correct-time" />
      <input type="hidden" name="key" value={actionKey} />
      <input type="hidden" name="appointmentId" value={visit.appointmentId} />
      <div className="grid gap-1.5">
        <label htmlFor={id} className="text-sm font-medium">
          Corrected time worked
        </label>
        <select
          id={id}
          name="minutesWorked"
          defaultValue={String(visit.minutesWorked)}
          className="field"
          {...worked.props}
        >
          {workedChoices(visit.blockMinutes).map((m) => (
            <option key={m} value={m}>
              {hoursText(m)}
            </option>
          ))}
        </select>
        {worked.message}
      </div>
      <div className="grid gap-1.5">
        <label htmlFor={`${id}-reason`} className="text-sm font-medium">
          Reason
        </label>
        <input
          id={`${id}-reason`}
          name="reason"
          required
          maxLength={200}
          className="field"
          {...reason.props}
        />
        {reason.message}
      </div>
      <button type="submit" className="btn btn-line h-9" disabled={busy}>
        Correct time worked
      </button>
    </Form>
  );
}
