import { CalendarPlusIcon, LogOutIcon } from "lucide-react";
import { useEffect, useRef } from "react";
import { useFetcher, useNavigate } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";

type SignOutResult = { ok: true } | { ok: false; error: string };

/** Title, subtitle and the two header buttons (SPEC section 2), plus the profile control. */
export function EmployeeHeader({
  onCreateAppointment,
  profile,
}: {
  onCreateAppointment: () => void;
  profile?: React.ReactNode;
}) {
  return (
    <header className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
      <div>
        <h1 className="text-2xl font-bold sm:text-3xl">Employee Dashboard</h1>
        <p className="text-muted-foreground">Manage all customer requests and appointments</p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" onClick={onCreateAppointment}>
          <CalendarPlusIcon aria-hidden="true" />
          Create Appointment
        </Button>
        <SignOutButton />
        {profile}
      </div>
    </header>
  );
}

/** 'Sign Out': a real form (works without JavaScript); failures show the server's message. */
function SignOutButton() {
  const fetcher = useFetcher<SignOutResult>();
  const navigate = useNavigate();
  const handled = useRef<unknown>(null);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    if (fetcher.data.ok) {
      toast.success("Signed out", { description: "You have been successfully signed out." });
      navigate("/auth", { replace: true });
    } else {
      toast.error(fetcher.data.error);
    }
  }, [fetcher.state, fetcher.data, navigate]);
  return (
    <fetcher.Form method="post" action="/employee">
      <input type="hidden" name="intent" value="sign-out" />
      {/* Present only once hydrated: tells the action to answer with data, not a redirect. */}
      <JsFlag />
      <Button type="submit" variant="outline" disabled={fetcher.state !== "idle"}>
        <LogOutIcon aria-hidden="true" />
        Sign Out
      </Button>
    </fetcher.Form>
  );
}

function JsFlag() {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.disabled = false;
  }, []);
  return <input ref={ref} type="hidden" name="js" value="1" disabled />;
}
