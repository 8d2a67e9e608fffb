import {
  CalendarCheckIcon,
  CheckCircle2Icon,
  ClipboardListIcon,
  EyeIcon,
  PackageIcon,
  UsersIcon,
} from "lucide-react";
import { Card } from "~/components/ui/card";
import type { MembershipCounters } from "~/features/memberships/index.server";
import type { RequestCounters } from "~/features/service-requests/index.server";

/** The counters (SPEC section 2, and memberships): a list, so screen readers hear the count. */
export function DashboardCounters({
  counters,
}: {
  counters: RequestCounters & MembershipCounters;
}) {
  const items = [
    { label: "New Requests", value: counters.new, icon: ClipboardListIcon },
    { label: "Reviewed", value: counters.reviewed, icon: EyeIcon },
    { label: "Scheduled", value: counters.scheduledAppointments, icon: CalendarCheckIcon },
    { label: "Completed", value: counters.complete, icon: CheckCircle2Icon },
    { label: "Active Members", value: counters.activeMembers, icon: UsersIcon },
    {
      label: "Parts awaiting approval",
      value: counters.partsAwaitingApproval,
      icon: PackageIcon,
    },
  ];
  return (
    <ul aria-label="Counters" className="grid grid-cols-2 gap-3 lg:grid-cols-3">
      {items.map(({ label, value, icon: Icon }) => (
        <li key={label}>
          <Card className="flex-row items-center justify-between gap-2 px-4 py-4 sm:px-6">
            <div>
              <p className="text-sm text-muted-foreground">{label}</p>
              <p className="text-2xl font-bold" data-counter={label}>
                {value.toLocaleString("en-US")}
              </p>
            </div>
            <Icon aria-hidden="true" className="size-6 text-primary" />
          </Card>
        </li>
      ))}
    </ul>
  );
}
