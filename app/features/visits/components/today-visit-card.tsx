import type { ReactNode } from "react";
import type { MarkedOutcome } from "~/components/ui/marked-field";
import { formatCents } from "~/lib/money";
import { phoneHref } from "~/lib/phone";
import type { TodayView, TodayVisit } from "../today-schedule.server";
import { VISIT_STATUS_LABELS } from "../visit-state";
import {
  TodayFinishForm,
  TodayPartForm,
  TodayPhotoForm,
  TodayStartForms,
} from "./today-visit-forms";

/*
 * One visit on the handyman's 'Today' (issue 26 items 9-10): what he needs at the door (who,
 * where, the phone, the notes, the home's record), the tasks and parts, and the forms he acts
 * with that day (employee.today.tsx lists them, employee.today.server.ts answers them).
 */

/** A visit as 'Today' draws it: its time worked offered, and one key per form (ADR 048). */
export type TodayCardVisit = Omit<TodayVisit, "startedAt"> & {
  /** The time worked offered by 'Finish visit', and the choices within the block. */
  suggested: number;
  choices: number[];
  /** When 'Start visit' was tapped, as the clock on the wall read it. */
  started: string | null;
  keys: Record<"onMyWay" | "start" | "finish" | "photo" | "part" | "refer", string>;
};

function mapsLink(address: string) {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;
}

export function TodayVisitCard({
  visit: v,
  titleId,
  view,
  today,
  outcome,
  home,
  refer,
}: {
  visit: TodayCardVisit;
  /** The heading's id, short: 8 visits' forms keep the page within 60 KB. */
  titleId: string;
  view: TodayView;
  today: string;
  /** The page's last answer: a refused form of this visit marks its fields (ADR 093). */
  outcome: MarkedOutcome;
  /** The home's record (ADR 087), shown on the visit's day. */
  home?: ReactNode;
  /** 'Refer a specialist' (issue 41, item 6). */
  refer?: ReactNode;
}) {
  const open = v.status === "booked" || v.status === "on_the_way";
  const working = open || v.status === "in_progress";
  return (
    <article aria-labelledby={titleId} className="grid gap-3 rounded-lg border bg-card p-4">
      <h2 id={titleId} className="text-lg font-semibold">
        {view === "week" ? `${v.dateLabel}, ` : ""}
        {v.startLabel} to {v.endLabel}: {v.isWalkThru ? "Walk-thru, " : ""}
        {v.customerName}
      </h2>
      <p className="text-sm">
        <span className="font-medium">{VISIT_STATUS_LABELS[v.status]}</span>
      </p>
      <p>
        <a className="underline" href={mapsLink(v.address)}>
          {v.address}
        </a>
      </p>
      {v.phone && (
        <p>
          <a className="underline" href={phoneHref(v.phone, { asWritten: true })}>
            Call {v.phone}
          </a>
        </p>
      )}
      {v.propertyNotes && <p className="text-sm">Home: {v.propertyNotes}</p>}
      {v.visitNotes && <p className="text-sm">Notes: {v.visitNotes}</p>}
      {home}
      {v.coveringFor && <p className="text-sm">Covering for {v.coveringFor}</p>}
      {v.withHandyman && (
        <p className="text-sm" data-testid="with-handyman">
          Two handymen: with {v.withHandyman}
        </p>
      )}
      {/* A walk-thru has no tasks (ADR 061): no empty heading. */}
      {v.tasks.length > 0 && <TodayTasks tasks={v.tasks} />}
      {v.parts.length > 0 && <TodayParts parts={v.parts} />}
      {v.date === today && open && <TodayStartForms visit={v} />}
      {working && v.date <= today && <TodayFinishForm visit={v} outcome={outcome} />}
      {v.status !== "canceled" && v.tasks.some((t) => t.requestId) && <TodayPhotoForm visit={v} />}
      {/* A job for a licensed trade goes to a specialist (issue 41, item 6). */}
      {v.status !== "canceled" && !v.isWalkThru && refer}
      {/* Parts are a member's visit's; a walk-thru only looks. */}
      {v.status !== "canceled" && !v.isWalkThru && (
        <TodayPartForm
          visit={v}
          outcome={outcome}
          action={`/employee/today?${view === "today" ? "" : `view=${view}&`}add=part`}
        />
      )}
    </article>
  );
}

function TodayTasks({ tasks }: { tasks: TodayVisit["tasks"] }) {
  return (
    <>
      <h3 className="font-medium">Tasks</h3>
      <ul className="grid gap-2">
        {tasks.map((t) => (
          <li key={t.id} className="grid gap-1">
            <span>
              {t.description}
              {t.outcome ? ` (${t.outcome === "done" ? "Done" : "Not done"})` : ""}
            </span>
            {t.notes && <span className="text-sm text-muted-foreground">{t.notes}</span>}
            {t.staffNotes && <span className="text-sm">Office: {t.staffNotes}</span>}
            {t.photos.length > 0 && (
              <span className="flex flex-wrap gap-2">
                {t.photos.map((p) => (
                  <a key={p.id} href={`/request-photos/${p.id}`}>
                    <img
                      src={`/request-photos/${p.id}/thumbnail`}
                      alt={`${p.taken === "after" ? "After photo" : p.taken === "before" ? "Before photo" : "Photo"}: ${p.name}`}
                      width={64}
                      height={64}
                      loading="lazy"
                      className="size-16 rounded object-cover"
                    />
                  </a>
                ))}
              </span>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

function TodayParts({ parts }: { parts: TodayVisit["parts"] }) {
  return (
    <>
      <h3 className="font-medium">Parts</h3>
      <ul className="grid gap-1 text-sm">
        {parts.map((p) => (
          <li key={p.id}>
            {p.description}: {formatCents(p.costCents)} (
            {p.status === "pending_approval"
              ? "waiting for the member's approval"
              : p.status.replace("_", " ")}
            )
            {p.hasReceipt && (
              <>
                {" "}
                <a className="underline" href={`/part-receipts/${p.id}`}>
                  Receipt
                </a>
              </>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
