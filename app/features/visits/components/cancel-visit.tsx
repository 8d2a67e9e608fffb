import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { buttonVariants } from "~/components/ui/button-variants";

/**
 * 'Cancel Visit': what canceling gives back, then a confirm step of its own (?cancel=1, a page
 * of its own without JavaScript too) with 'Yes, cancel the visit' and 'Keep the visit'.
 */
export function CancelVisit({
  visitId,
  confirm,
  returns,
  busy,
}: {
  visitId: string;
  confirm: boolean;
  /** What canceling gives back, said to the member or, for staff, about the member. */
  returns: string;
  busy: boolean;
}) {
  return (
    <>
      <h2 className="pt-2 text-lg font-semibold">Cancel Visit</h2>
      {confirm ? (
        <div
          role="alertdialog"
          aria-labelledby="cancel-confirm-title"
          aria-describedby="cancel-confirm-text"
          className="grid gap-3 rounded-md border border-destructive/40 p-3"
        >
          <p id="cancel-confirm-title" className="font-semibold">
            Cancel this visit?
          </p>
          <p id="cancel-confirm-text">{returns}</p>
          <div className="flex flex-wrap gap-2">
            <Form method="post">
              <input type="hidden" name="intent" value="cancel" />
              <Button
                type="submit"
                variant="destructive"
                className="w-full sm:w-fit"
                disabled={busy}
              >
                Yes, cancel the visit
              </Button>
            </Form>
            <Link
              to={`/dashboard/visits/${visitId}`}
              className={buttonVariants({ variant: "outline", className: "w-full sm:w-fit" })}
            >
              Keep the visit
            </Link>
          </div>
        </div>
      ) : (
        <>
          <p className="text-sm text-muted-foreground">{returns}</p>
          <Form method="get">
            <input type="hidden" name="cancel" value="1" />
            <Button type="submit" variant="destructive" className="w-full sm:w-fit">
              Cancel Visit
            </Button>
          </Form>
        </>
      )}
    </>
  );
}
