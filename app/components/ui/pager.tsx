import { Link } from "react-router";
import { Button } from "~/components/ui/button";

/**
 * The staff tables' pager: 'Previous page' and 'Next page' as plain links (no JavaScript
 * needed), and "Page 2 of 5" between them when the number of pages is known. A list that only
 * knows whether more follows gives `hasMore` instead of `pageCount`. Nothing is drawn when there
 * is a single page.
 */
export function Pager({
  label,
  page,
  pageCount,
  hasMore = pageCount !== undefined && page < pageCount,
  to,
  className = "mt-4 flex items-center justify-between gap-2",
}: {
  /** The navigation's name: "Customer pages". */
  label: string;
  page: number;
  pageCount?: number;
  hasMore?: boolean;
  /** The link to a page. */
  to: (page: number) => string;
  className?: string;
}) {
  const several = pageCount !== undefined ? pageCount > 1 : page > 1 || hasMore;
  if (!several) return null;
  return (
    <nav aria-label={label} className={className}>
      {page > 1 ? (
        <Button asChild variant="outline" size="sm">
          <Link to={to(page - 1)}>Previous page</Link>
        </Button>
      ) : (
        <span />
      )}
      {pageCount !== undefined ? (
        <p className="text-sm text-muted-foreground">
          Page {page} of {pageCount}
        </p>
      ) : null}
      {hasMore ? (
        <Button asChild variant="outline" size="sm">
          <Link to={to(page + 1)}>Next page</Link>
        </Button>
      ) : (
        <span />
      )}
    </nav>
  );
}
