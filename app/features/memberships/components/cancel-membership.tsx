import { Form, Link, useNavigate, useNavigation } from "react-router";
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "~/components/ui/alert-dialog";
import { Button } from "~/components/ui/button";
import { useHydrated } from "~/lib/use-hydrated";
import type { CancelQuoteView } from "../types";
import { SettlementLines } from "./settlement-lines";

/**
 * 'Cancel membership' and its confirmation, which shows the computed refund before anything
 * happens. The confirmation opens from the URL (`openHref`), so it works without JavaScript
 * too: then it is part of the page instead of a dialog.
 */
export function CancelMembership({
  quote,
  open,
  openHref,
  closeHref,
  action,
  onBehalf = false,
}: {
  quote: CancelQuoteView;
  open: boolean;
  openHref: string;
  closeHref: string;
  action: string;
  /** Staff cancel for the member. */
  onBehalf?: boolean;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formAction === action;
  const body = (
    <>
      <p className="text-sm">{quote.sentence}</p>
      <SettlementLines settlement={quote.settlement} testId="cancel-settlement" />
      {quote.futureVisitCount > 0 && (
        <p className="text-sm">
          {quote.futureVisitCount} upcoming visit{quote.futureVisitCount === 1 ? " is" : "s are"}{" "}
          canceled with it and removed from the calendar.
        </p>
      )}
      <p className="text-sm text-muted-foreground">
        {onBehalf ? "The member keeps" : "You keep"} everything already done; there is no penalty.
      </p>
    </>
  );
  const confirm = (
    <Form method="post" action={action} className="flex flex-wrap gap-2" preventScrollReset>
      <input type="hidden" name="intent" value="cancel" />
      <input type="hidden" name="key" value={quote.key} />
      <Button type="submit" variant="destructive" disabled={busy}>
        {busy ? "Canceling..." : "Confirm cancellation"}
      </Button>
      <Button asChild variant="outline">
        <Link to={closeHref} preventScrollReset replace>
          Keep membership
        </Link>
      </Button>
    </Form>
  );

  return (
    <>
      <Button asChild variant="outline">
        <Link to={openHref} preventScrollReset>
          Cancel membership
        </Link>
      </Button>
      {open && !hydrated && (
        <section
          aria-labelledby="cancel-membership-title"
          className="grid gap-3 rounded-lg border-2 border-destructive/40 bg-card p-4"
        >
          <h3 id="cancel-membership-title" className="text-lg font-semibold">
            Cancel membership
          </h3>
          {body}
          {confirm}
        </section>
      )}
      {hydrated && (
        <AlertDialog
          open={open}
          onOpenChange={(next) => {
            if (!next) void navigate(closeHref, { replace: true, preventScrollReset: true });
          }}
        >
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>Cancel membership</AlertDialogTitle>
              <AlertDialogDescription>
                {onBehalf
                  ? "Cancel this membership on the member's behalf, settled as below."
                  : "Cancel any time without penalty. This is what is settled."}
              </AlertDialogDescription>
            </AlertDialogHeader>
            <div className="grid gap-2">{body}</div>
            <AlertDialogFooter>{confirm}</AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      )}
    </>
  );
}
