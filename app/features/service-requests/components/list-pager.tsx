import { href, Link, useSearchParams } from "react-router";
import { LIST_PAGE_PARAMS } from "../list-pages";
import type { RequestListName, RequestListPage } from "../types";

const WORDS: Record<RequestListName, { nav: string; back: string; more: string; in: string }> = {
  next: { nav: "Pages of Next", back: "Previous tasks", more: "More tasks", in: " in Next" },
  later: { nav: "Pages of Later", back: "Previous tasks", more: "More tasks", in: " in Later" },
  completed: {
    nav: "Pages of Completed Work",
    back: "Newer completed work",
    more: "Older completed work",
    in: "",
  },
};

/**
 * Links to the previous and following page of one dashboard list: plain links, so paging needs
 * no JavaScript; the other lists keep their pages, the open tab stays open.
 */
export function ListPager({ name, list }: { name: RequestListName; list: RequestListPage }) {
  const [params] = useSearchParams();
  if (list.pages <= 1) return null;
  const words = WORDS[name];
  const to = (page: number) => {
    const next = new URLSearchParams(params);
    for (const dialog of ["new", "edit", "confirm", "notice", "denied"]) next.delete(dialog);
    if (page === 1) next.delete(LIST_PAGE_PARAMS[name]);
    else next.set(LIST_PAGE_PARAMS[name], String(page));
    const search = next.toString();
    return search ? `?${search}` : href("/dashboard");
  };
  return (
    <nav aria-label={words.nav} className="flex flex-wrap items-center gap-3 text-sm">
      {list.page > 1 ? (
        <Link
          to={to(list.page - 1)}
          preventScrollReset
          aria-label={words.in ? `${words.back}${words.in}` : undefined}
          className="underline underline-offset-4"
        >
          {words.back}
        </Link>
      ) : null}
      <span>{`Page ${list.page} of ${list.pages}`}</span>
      {list.page < list.pages ? (
        <Link
          to={to(list.page + 1)}
          preventScrollReset
          aria-label={words.in ? `${words.more}${words.in}` : undefined}
          className="underline underline-offset-4"
        >
          {words.more}
        </Link>
      ) : null}
    </nav>
  );
}
