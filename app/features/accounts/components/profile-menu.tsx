import { ChevronDown, LogOut, UserRound } from "lucide-react";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { Avatar, AvatarFallback, AvatarImage } from "~/components/ui/avatar";
import { Button } from "~/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import type { SessionUser } from "~/lib/session.server";
import type { HomeAddress } from "../schema";
import { ProfileSettingsDialog } from "./profile-settings-dialog";
import { useSignOut } from "./use-sign-out";
import { personName } from "~/lib/names";

export type ProfileMenuProps = {
  /** The signed-in user, as a loader returns it (SessionUser from session.server.ts). */
  user: SessionUser;
  /** Rendered inside Profile Settings (the employee dashboard's 'Profile Photo' block). */
  photoSection?: React.ReactNode;
  /** The Home Address card's data; when left out, the dialog loads it from /account. */
  home?: HomeAddress | null;
  /** The toast when signing out fails (defaults to the profile menu's wording). */
  signOutErrorMessage?: string;
};

/** The header's profile menu: 'Profile' opens Profile Settings, 'Sign Out' signs out. */
export function ProfileMenu({
  user,
  photoSection,
  home,
  signOutErrorMessage = "Failed to sign out. Please try again.",
}: ProfileMenuProps) {
  // `?profile=open` (the 'Profile' link of a page without JavaScript, the reports) opens
  // Profile Settings here; closing it takes the parameter away.
  const [params, setParams] = useSearchParams();
  const [settingsOpen, setOpen] = useState(() => params.get("profile") === "open");
  const setSettingsOpen = (open: boolean) => {
    setOpen(open);
    if (!open && params.get("profile") === "open")
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete("profile");
          return next;
        },
        { replace: true, preventScrollReset: true },
      );
  };
  const { signOut, pending } = useSignOut({ errorMessage: signOutErrorMessage });
  const displayName = personName(user.firstName, user.lastName) || user.name || user.email;
  const shortName = user.firstName || user.email;
  const initial = shortName.charAt(0).toUpperCase();

  return (
    <>
      {/* Not modal: the menu closes cleanly before the dialog it opens takes focus. */}
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          {/* The name holds the visible text too (WCAG 2.5.3), also where only the avatar shows. */}
          <Button
            variant="outline"
            className="gap-2 px-2 sm:px-3"
            aria-label={`Profile menu ${shortName}`}
          >
            <Avatar className="size-7">
              {user.profilePhotoUrl && <AvatarImage src={user.profilePhotoUrl} alt="" />}
              <AvatarFallback className="text-xs">{initial}</AvatarFallback>
            </Avatar>
            <span className="hidden max-w-40 truncate sm:inline">{shortName}</span>
            <ChevronDown aria-hidden="true" className="size-4" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-60">
          <DropdownMenuLabel className="grid gap-0.5">
            <span className="truncate">{displayName}</span>
            <span className="truncate text-xs font-normal text-muted-foreground">{user.email}</span>
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => setSettingsOpen(true)}>
            <UserRound aria-hidden="true" />
            Profile
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={signOut} disabled={pending}>
            <LogOut aria-hidden="true" />
            Sign Out
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <ProfileSettingsDialog
        open={settingsOpen}
        onOpenChange={setSettingsOpen}
        user={user}
        home={home}
        photoSection={photoSection}
      />
    </>
  );
}
