import { useEffect } from "react";
import { href, useFetcher } from "react-router";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "~/components/ui/dialog";
import type { SessionUser } from "~/lib/session.server";
import { NotificationsCard, type NotificationSettings } from "~/features/notifications";
import type { HomeAddress } from "../schema";
import { HomeAddressCard } from "./home-address-card";
import { MobileSignInCard, MobileVerification, type MobileStatus } from "./mobile-sign-in";
import { ProfileInformationCard } from "./profile-information-card";
import { TwoFactorCard } from "./two-factor-card";

/** 'Profile Settings': profile information, the home address and two-factor sign-in. */
export function ProfileSettingsDialog({
  open,
  onOpenChange,
  user,
  home,
  photoSection,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  user: SessionUser;
  home?: HomeAddress | null;
  photoSection?: React.ReactNode;
}) {
  // Without home data from the page, the dialog asks /account for it when it opens; a
  // customer's notification settings always come from there.
  const homeLoader = useFetcher<{
    home: HomeAddress | null;
    notifications: NotificationSettings | null;
    mobile: MobileStatus;
  }>();
  // Everyone's mobile status (text-code sign-in, ADR 086) comes from /account too.
  const needsHome = open;
  const { load, state, data } = homeLoader;
  useEffect(() => {
    if (needsHome && state === "idle" && !data) load(href("/account"));
  }, [needsHome, state, data, load]);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Profile Settings</DialogTitle>
          <DialogDescription>Manage your profile information and settings</DialogDescription>
        </DialogHeader>
        <div className="grid gap-4">
          {photoSection}
          <ProfileInformationCard user={user} />
          <HomeAddressCard
            home={home === undefined ? (data?.home ?? null) : home}
            loading={home === undefined && !data}
            onSaved={() => {
              if (home === undefined) load(href("/account"));
            }}
          />
          {user.isEmployee ? (
            <MobileSignInCard mobile={data?.mobile ?? null} />
          ) : (
            <NotificationsCard settings={data?.notifications ?? null}>
              <MobileVerification mobile={data?.mobile ?? null} />
            </NotificationsCard>
          )}
          <TwoFactorCard enabled={user.twoFactorEnabled} />
        </div>
      </DialogContent>
    </Dialog>
  );
}
