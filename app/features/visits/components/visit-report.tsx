import { formatCents } from "~/lib/money";
import { hoursText } from "~/lib/hours";
import type { VisitReport } from "../visit-report.server";

const PART_STATUS_WORDS: Record<VisitReport["parts"][number]["status"], string> = {
  pending_approval: "waiting for your approval",
  approved: "approved",
  declined: "declined",
  bought: "bought",
};

/** A completed visit: the time worked, each task's outcome with its photos, the parts. */
export function VisitReportSection({ report }: { report: VisitReport }) {
  return (
    <section
      aria-labelledby="visit-report-title"
      className="grid gap-3 rounded-lg border bg-card p-4"
    >
      <h2 id="visit-report-title" className="text-lg font-semibold">
        What was done
      </h2>
      <p>
        Time worked:{" "}
        <span className="font-medium" data-testid="time-worked">
          {report.minutesWorked === null ? "Not recorded" : hoursText(report.minutesWorked)}
        </span>
      </p>
      <ul className="grid gap-3">
        {report.tasks.map((t) => (
          <li key={t.id} className="grid gap-1" data-task-outcome={t.outcome ?? "none"}>
            <p>
              <span className="font-medium">{t.description}</span>:{" "}
              {t.outcome === "done"
                ? "Done"
                : t.outcome === "not_done"
                  ? "Not done (back on your list)"
                  : "Not marked"}
            </p>
            {t.photos.length ? (
              <ul className="flex flex-wrap gap-2" aria-label={`Photos of ${t.description}`}>
                {t.photos.map((p) => {
                  const label =
                    p.taken === "before" ? "Before" : p.taken === "after" ? "After" : "Your photo";
                  return (
                    <li key={p.id} className="grid justify-items-center gap-1 text-xs">
                      <a href={`/request-photos/${p.id}`}>
                        <img
                          src={`/request-photos/${p.id}/thumbnail`}
                          alt={`${label}: ${p.name}`}
                          width={80}
                          height={80}
                          loading="lazy"
                          className="size-20 rounded object-cover"
                        />
                      </a>
                      <span>{label}</span>
                    </li>
                  );
                })}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
      {report.parts.length ? (
        <>
          <h3 className="font-medium">Parts</h3>
          <ul className="grid gap-1 text-sm">
            {report.parts.map((p) => (
              <li key={p.id}>
                {p.description}: {formatCents(p.costCents)} ({PART_STATUS_WORDS[p.status]})
                {p.hasReceipt ? (
                  <>
                    {" "}
                    <a className="underline" href={`/part-receipts/${p.id}`}>
                      Receipt
                    </a>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
