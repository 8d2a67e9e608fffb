import { BarChart3Icon, HardHatIcon, WrenchIcon } from "lucide-react";
import { AppHeader } from "~/components/layout/app-header";
import { buttonVariants } from "~/components/ui/button-variants";
import { ProfileMenu } from "~/features/accounts";
import { AvailabilityLinks } from "~/features/availability";
import type { SessionUser } from "~/lib/session.server";
import { ProfilePhotoSection } from "./profile-photo-section";

/**
 * The header of every staff page (the dashboard, the week view, working hours, a customer's
 * membership, a visit): the logo and phone, then the profile menu with 'Profile' (the photo
 * and the schedule links inside) and 'Sign Out', so staff can sign out from wherever they are.
 */
export function StaffHeader({
  employee,
  width = "max-w-6xl",
}: {
  employee: SessionUser;
  width?: React.ComponentProps<typeof AppHeader>["width"];
}) {
  return (
    <AppHeader width={width}>
      {/* The office's reports, one tap from every staff page (a document load: the reports
          page runs no JavaScript). A handyman is not offered them (issue 30). */}
      {employee.isHandyman ? null : (
        <a href="/employee/reports" className={buttonVariants({ variant: "outline" })}>
          <BarChart3Icon aria-hidden="true" />
          <span className="sr-only sm:not-sr-only">Reports</span>
        </a>
      )}
      {/* The office's handymen and the partner network of specialists (issue 41). */}
      {employee.isHandyman ? null : (
        <a href="/employee/handymen" className={buttonVariants({ variant: "outline" })}>
          <HardHatIcon aria-hidden="true" />
          <span className="sr-only sm:not-sr-only">Handymen</span>
        </a>
      )}
      {employee.isHandyman ? null : (
        <a href="/employee/specialists" className={buttonVariants({ variant: "outline" })}>
          <WrenchIcon aria-hidden="true" />
          <span className="sr-only sm:not-sr-only">Specialists</span>
        </a>
      )}
      <ProfileMenu
        user={employee}
        photoSection={
          <>
            <ProfilePhotoSection
              firstName={employee.firstName}
              email={employee.email}
              photoUrl={employee.profilePhotoUrl}
            />
            <AvailabilityLinks handyman={employee.isHandyman} />
            {/* A document load: the reports page runs no JavaScript (its route does not hydrate).
                The reports are the office's (issue 30): a handyman is not offered them. */}
            {employee.isHandyman ? null : (
              <a
                href="/employee/reports"
                className="mb-3 block text-sm underline underline-offset-4"
              >
                Reports
              </a>
            )}
            {employee.isHandyman
              ? null
              : (["Handymen", "Specialists"] as const).map((label) => (
                  <a
                    key={label}
                    href={`/employee/${label.toLowerCase()}`}
                    className="mb-3 block text-sm underline underline-offset-4"
                  >
                    {label}
                  </a>
                ))}
            {employee.isHandyman ? null : (
              <a
                href="/employee/failed-deliveries"
                className="mb-3 block text-sm underline underline-offset-4"
              >
                Failed deliveries
              </a>
            )}
          </>
        }
      />
    </AppHeader>
  );
}
