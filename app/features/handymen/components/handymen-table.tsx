import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { NativeSelect } from "~/components/ui/native-select";
import type { HandymanCard } from "../types";
import { HandymanAvatar } from "./handyman-avatar";
import { hoursText } from "~/lib/hours";

export type Outcome = { ok: boolean; intent: string; message: string; id?: string } | null;

type MemberLine = { id: string; name: string };
type Row = {
  id: string;
  name: string;
  photoUrl: string | null;
  members: MemberLine[];
  memberCount: number;
  bookedMinutes: number;
  availableMinutes: number;
  timeOff: string[];
};

/** A week's minutes, the hours always said: 45 -> "0 h 45 min". */
const hours = (minutes: number) => hoursText(minutes, { hours: "always" });

/** 'Reassign' for one member: the handyman, and whether her future visits move with her. */
function ReassignForm({
  member,
  handymen,
  currentId,
  outcome,
}: {
  member: MemberLine;
  handymen: HandymanCard[];
  currentId: string | null;
  outcome: Outcome;
}) {
  const id = `re-${member.id}`;
  return (
    <li className="grid gap-1 border-t pt-2 first:border-t-0">
      <Form method="post" className="flex flex-wrap items-center gap-2">
        <input type="hidden" name="intent" value="reassign" />
        <input type="hidden" name="id" value={member.id} />
        <input type="hidden" name="customerId" value={member.id} />
        <Link
          to={`/employee/customers/${member.id}/membership`}
          className="min-w-32 font-medium underline underline-offset-4"
        >
          {member.name}
        </Link>
        <label htmlFor={id} className="sr-only">
          New handyman for {member.name}
        </label>
        <NativeSelect
          id={id}
          name="handymanId"
          defaultValue={handymen.find((h) => h.id !== currentId)?.id}
          wrapperClassName="w-44"
        >
          {handymen
            .filter((h) => h.id !== currentId)
            .map((h) => (
              <option key={h.id} value={h.id}>
                {h.name}
              </option>
            ))}
        </NativeSelect>
        <label className="flex items-center gap-1 text-sm">
          <input type="checkbox" name="moveVisits" value="1" defaultChecked /> Move her future
          visits
        </label>
        <Button type="submit" size="sm" variant="outline" aria-label={`Reassign ${member.name}`}>
          Reassign
        </Button>
      </Form>
      {outcome?.intent === "reassign" && outcome.id === member.id ? (
        <p role={outcome.ok ? "status" : "alert"} className="text-sm">
          {outcome.message}
        </p>
      ) : null}
    </li>
  );
}

/** One row per handyman (issue 41, item 4), then the members with no dedicated handyman. */
export function HandymenTable({
  rows,
  unassigned,
  unassignedCount,
  days,
  outcome,
}: {
  rows: Row[];
  unassigned: MemberLine[];
  unassignedCount: number;
  days: number;
  outcome: Outcome;
}) {
  const handymen = rows.map((r) => ({ id: r.id, name: r.name, firstName: r.name, photoUrl: null }));
  return (
    <div className="grid gap-4">
      {rows.length === 0 ? (
        <p>No employee has the role Handyman yet (set it on Working hours).</p>
      ) : (
        <ul className="grid gap-3" aria-label="Handymen">
          {rows.map((r) => (
            <li key={r.id}>
              <Card>
                <CardHeader>
                  <CardTitle asChild>
                    <h2 className="flex items-center gap-3 text-base">
                      <HandymanAvatar handyman={r} className="size-10" />
                      {r.name}
                    </h2>
                  </CardTitle>
                </CardHeader>
                <CardContent className="grid gap-2 text-sm">
                  <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
                    <dt className="text-muted-foreground">Members</dt>
                    <dd data-testid="member-count">{r.memberCount}</dd>
                    <dt className="text-muted-foreground">Next {days} days</dt>
                    <dd>
                      {hours(r.bookedMinutes)} booked of {hours(r.availableMinutes)} available
                    </dd>
                    <dt className="text-muted-foreground">Time off</dt>
                    <dd>{r.timeOff.length ? r.timeOff.join("; ") : "None"}</dd>
                  </dl>
                  {r.members.length ? (
                    // Open where a member was just reassigned: her confirmation is in her row.
                    <details
                      open={
                        r.members.some(
                          (m) => outcome?.intent === "reassign" && outcome.id === m.id,
                        ) || undefined
                      }
                    >
                      <summary className="cursor-pointer underline underline-offset-4">
                        {r.name}&apos;s members
                      </summary>
                      <ul className="mt-2 grid gap-2">
                        {r.members.map((m) => (
                          <ReassignForm
                            key={m.id}
                            member={m}
                            handymen={handymen}
                            currentId={r.id}
                            outcome={outcome}
                          />
                        ))}
                      </ul>
                    </details>
                  ) : null}
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2>Members with no dedicated handyman ({unassignedCount})</h2>
          </CardTitle>
        </CardHeader>
        <CardContent>
          {unassigned.length === 0 ? (
            <p className="text-sm text-muted-foreground">Every member has one.</p>
          ) : (
            <ul className="grid gap-2">
              {unassigned.map((m) => (
                <ReassignForm
                  key={m.id}
                  member={m}
                  handymen={handymen}
                  currentId={null}
                  outcome={outcome}
                />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
