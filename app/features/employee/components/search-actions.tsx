import { SearchIcon } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";

/** A staff list's search form buttons: Search, and Clear back to the whole list once searched. */
export function SearchActions({ clearTo, canClear }: { clearTo: string; canClear: boolean }) {
  return (
    <div className="flex gap-2">
      <Button type="submit" variant="secondary">
        <SearchIcon aria-hidden="true" />
        Search
      </Button>
      {canClear && (
        <Button asChild variant="ghost">
          <Link to={clearTo} preventScrollReset>
            Clear
          </Link>
        </Button>
      )}
    </div>
  );
}
