import { Form } from "react-router";

export type SpecialistOption = { id: string; label: string };

/**
 * 'Refer a specialist' (issue 41, item 6) from a visit or a request: the specialist, the
 * reason, and the photos it carries (the job's). Opened by 'Finish visit' when the work needs
 * a new water or power source. A plain form with its key: sent twice, applied once.
 */
export function ReferSpecialist({
  specialists,
  source,
  actionKey,
  photoCount,
  open = false,
  newWaterOrPower = false,
  action,
  idPrefix,
}: {
  specialists: SpecialistOption[];
  source: { appointmentId: string } | { serviceRequestId: string };
  actionKey: string;
  photoCount: number;
  open?: boolean;
  newWaterOrPower?: boolean;
  action?: string;
  idPrefix: string;
}) {
  if (!specialists.length) return null;
  return (
    <details className="box" open={open}>
      <summary>Refer a specialist</summary>
      <Form method="post" action={action} className="mt-3 grid gap-3">
        <input type="hidden" name="intent" value="refer" />
        <input type="hidden" name="key" value={actionKey} />
        {"appointmentId" in source ? (
          <input type="hidden" name="appointmentId" value={source.appointmentId} />
        ) : (
          <input type="hidden" name="serviceRequestId" value={source.serviceRequestId} />
        )}
        {newWaterOrPower ? <input type="hidden" name="newWaterOrPower" value="1" /> : null}
        {newWaterOrPower ? (
          <p className="text-sm">
            The work needs a new water or power source: a licensed specialist does it.
          </p>
        ) : null}
        <label className="grid gap-1" htmlFor={`${idPrefix}-specialist`}>
          Specialist
          <select id={`${idPrefix}-specialist`} name="specialistId" required className="field">
            <option value="">Choose a specialist</option>
            {specialists.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1" htmlFor={`${idPrefix}-reason`}>
          What the job needs
          <textarea
            id={`${idPrefix}-reason`}
            name="reason"
            required
            maxLength={1000}
            rows={3}
            className="field"
          />
        </label>
        <p className="text-sm text-muted-foreground">
          {photoCount
            ? `It carries the job's ${photoCount} ${photoCount === 1 ? "photo" : "photos"}.`
            : "The job has no photos yet."}
        </p>
        <button type="submit" className="btn btn-main">
          Refer
        </button>
      </Form>
    </details>
  );
}
