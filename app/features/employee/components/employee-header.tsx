import { href } from "react-router";
import { CalendarPlusIcon, LogOutIcon } from "lucide-react";
import { Button } from "~/components/ui/button";

/**
 * Title, subtitle and the two header buttons (SPEC section 2). The logo, phone and profile menu
 * are in the app header above it.
 */
export function EmployeeHeader({
  onCreateAppointment,
  onSignOut,
  signingOut,
}: {
  onCreateAppointment: () => void;
  onSignOut: () => void;
  signingOut: boolean;
}) {
  return (
    <div
      data-header-controls
      className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between"
    >
      <div>
        <h1 className="text-2xl font-bold sm:text-3xl">Employee Dashboard</h1>
        <p className="text-muted-foreground">Manage all customer requests and appointments</p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" onClick={onCreateAppointment}>
          <CalendarPlusIcon aria-hidden="true" />
          Create Appointment
        </Button>
        {/* A real form, so signing out works without JavaScript too; with it, the page asks
            for the result and shows the notice itself. */}
        <form
          method="post"
          action={href("/account")}
          onSubmit={(event) => {
            event.preventDefault();
            onSignOut();
          }}
        >
          <input type="hidden" name="intent" value="sign-out" />
          <Button type="submit" variant="outline" disabled={signingOut}>
            <LogOutIcon aria-hidden="true" />
            Sign Out
          </Button>
        </form>
      </div>
    </div>
  );
}
