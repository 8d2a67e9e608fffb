import { CheckCircle2 } from "lucide-react";
import type { RequestListPage } from "../types";
import { ListPager } from "./list-pager";
import { RequestCard } from "./request-card";

/**
 * 'Completed Work': the requests whose status is complete (docs/design.md decision 1), newest first,
 * a page at a time.
 */
export function CompletedTab({ list }: { list: RequestListPage }) {
  const completed = list.items;
  return (
    <section aria-labelledby="completed-title" className="grid gap-4">
      <h2 id="completed-title" className="text-lg font-semibold">
        Completed Work
      </h2>
      {completed.length === 0 ? (
        <div className="grid justify-items-center gap-2 rounded-lg border border-dashed p-8 text-center">
          <CheckCircle2 aria-hidden="true" className="size-10 text-muted-foreground" />
          <p className="text-sm text-muted-foreground">No completed work yet</p>
        </div>
      ) : (
        <ul className="grid gap-3">
          {completed.map((request) => (
            <li key={request.id}>
              <RequestCard request={request} headingLevel="h3" />
            </li>
          ))}
        </ul>
      )}
      <ListPager name="completed" list={list} />
    </section>
  );
}
