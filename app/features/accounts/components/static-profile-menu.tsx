import { ChevronDown, LogOut, UserRound } from "lucide-react";
import { href } from "react-router";
import type { SessionUser } from "~/lib/session.server";
import { personName } from "~/lib/names";

/**
 * The profile menu of a page that runs no JavaScript (the reports, ADR 030's pattern): the same
 * button and the same two choices as ProfileMenu, as a disclosure the browser opens by itself.
 * 'Profile' opens Profile Settings on `profileHref` (a page that has the dialog), 'Sign Out' is
 * a plain form post to /account, which signs out and goes to the sign-in page.
 */
export function StaticProfileMenu({
  user,
  profileHref,
}: {
  user: SessionUser;
  profileHref: string;
}) {
  const displayName = personName(user.firstName, user.lastName) || user.name || user.email;
  const shortName = user.firstName || user.email;
  return (
    <details className="group relative">
      <summary
        aria-label={`Profile menu ${shortName}`}
        className="flex h-9 cursor-pointer list-none items-center gap-2 rounded-md border bg-background px-2 text-sm font-medium shadow-xs hover:bg-accent sm:px-3 [&::-webkit-details-marker]:hidden"
      >
        <span
          aria-hidden="true"
          className="flex size-7 items-center justify-center rounded-full bg-muted text-xs"
        >
          {shortName.charAt(0).toUpperCase()}
        </span>
        <span className="hidden max-w-40 truncate sm:inline">{shortName}</span>
        <ChevronDown aria-hidden="true" className="size-4" />
      </summary>
      <div className="absolute right-0 z-50 mt-1 grid w-60 gap-1 rounded-md border bg-popover p-1 text-popover-foreground shadow-md">
        <p className="grid gap-0.5 px-2 py-1.5 text-sm font-medium">
          <span className="truncate">{displayName}</span>
          <span className="truncate text-xs font-normal text-muted-foreground">{user.email}</span>
        </p>
        <hr className="-mx-1 my-1" />
        <a
          href={profileHref}
          className="flex items-center gap-2 rounded-sm px-2 py-1.5 text-sm hover:bg-accent"
        >
          <UserRound aria-hidden="true" className="size-4" />
          Profile
        </a>
        <form method="post" action={href("/account")}>
          <input type="hidden" name="intent" value="sign-out" />
          <button
            type="submit"
            className="flex w-full items-center gap-2 rounded-sm px-2 py-1.5 text-left text-sm hover:bg-accent"
          >
            <LogOut aria-hidden="true" className="size-4" />
            Sign Out
          </button>
        </form>
      </div>
    </details>
  );
}
