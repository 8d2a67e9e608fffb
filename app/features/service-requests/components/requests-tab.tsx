import { ClipboardList, Plus } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Form, href, useSearchParams } from "react-router";
import { Button } from "~/components/ui/button";
import { formFields, postRequestAction, showRequestNotice } from "../client-actions";
import { listPageQuery } from "../list-pages";
import type { Priority } from "../schema";
import type { CustomerRequest, CustomerRequestLists, RequestListPage } from "../types";
import { ListPager } from "./list-pager";
import { RequestCard } from "./request-card";

const GROUPS: { priority: Priority; label: string; empty: string }[] = [
  { priority: "next", label: "Next", empty: "No urgent tasks yet" },
  { priority: "later", label: "Later", empty: "No tasks for later yet" },
];

/** Completed work has left the to-do list: it is listed under Completed only. */
export function isOnToDoList(request: CustomerRequest) {
  return request.status !== "complete";
}

/**
 * Moves one request a place up or down inside its priority group of the to-do list (the
 * optimistic view).
 */
export function moveWithinGroup(
  requests: CustomerRequest[],
  requestId: string,
  direction: "up" | "down",
) {
  const moving = requests.find((request) => request.id === requestId);
  if (!moving || !isOnToDoList(moving)) return requests;
  const inGroup = (request: CustomerRequest) =>
    request.priority === moving.priority && isOnToDoList(request);
  const group = requests.filter(inGroup);
  const index = group.indexOf(moving);
  const target = direction === "up" ? index - 1 : index + 1;
  if (target < 0 || target >= group.length) return requests;
  const reordered = [...group];
  [reordered[index], reordered[target]] = [reordered[target], reordered[index]];
  let next = 0;
  return requests.map((request) => (inGroup(request) ? reordered[next++] : request));
}

/**
 * The form every dialog opener of the tab submits: buttons set ?new=next|later or ?edit=id
 * (ADR 009). Buttons elsewhere on the tab join it with their `form` attribute, so a card needs
 * no form of its own; without JavaScript it is a plain GET, with it a client-side navigation.
 */
export const REQUEST_OPENER_FORM = "request-dialog-opener";

/**
 * The Requests tab: 'New Request', the 'Next' and 'Later' groups (each with its own plus
 * button, a page of its cards at a time) and the empty states. Moves show at once and are then
 * confirmed by the server; when one fails the list is reloaded from the server.
 */
export function RequestsTab({
  lists,
  onChanged,
}: {
  lists: CustomerRequestLists;
  onChanged(): Promise<void> | void;
}) {
  const [params] = useSearchParams();
  const pageQuery = listPageQuery(params);
  const requests = [...lists.next.items, ...lists.later.items];
  const [items, setItems] = useState(requests);
  const [pending, setPending] = useState(0);
  // While moves are on their way, lists loaded in between are already out of date.
  const pendingRef = useRef(0);
  useEffect(() => {
    if (pendingRef.current === 0) setItems([...lists.next.items, ...lists.later.items]);
  }, [lists.next, lists.later]);

  async function onMove(event: React.FormEvent<HTMLFormElement>, id: string, dir: "up" | "down") {
    event.preventDefault();
    setItems((current) => moveWithinGroup(current, id, dir));
    pendingRef.current++;
    setPending(pendingRef.current);
    const result = await postRequestAction(
      href("/dashboard/requests/:requestId", { requestId: id }),
      formFields({ intent: dir === "up" ? "move-up" : "move-down" }),
      "order-failed",
    );
    showRequestNotice(result.notice);
    pendingRef.current--;
    setPending(pendingRef.current);
    // Success or failure, the list is then read again from the server.
    if (pendingRef.current === 0) await onChanged();
  }

  return (
    <div className="grid gap-6">
      <Form
        id={REQUEST_OPENER_FORM}
        method="get"
        action={href("/dashboard")}
        replace
        preventScrollReset
        className="flex flex-wrap items-center justify-between gap-3"
      >
        <h2 className="text-lg font-semibold">Service Requests</h2>
        {/* The dialog opens over the pages being looked at, not the first ones. */}
        {[...new URLSearchParams(pageQuery)].map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <Button type="submit" name="new" value="later">
          <Plus aria-hidden="true" />
          New Request
        </Button>
      </Form>
      {/* Completed work alone still shows the two (empty) groups, as before there were pages. */}
      {lists.next.total + lists.later.total + lists.completed.total === 0 ? (
        <section
          aria-labelledby="requests-empty-title"
          className="grid justify-items-center gap-3 rounded-lg border border-dashed p-8 text-center"
        >
          <ClipboardList aria-hidden="true" className="size-10 text-muted-foreground" />
          <h3 id="requests-empty-title" className="text-lg font-semibold">
            No Service Requests
          </h3>
          <p className="max-w-sm text-sm text-muted-foreground">
            Tell us about the first thing on your to-do list and we will plan it into a visit.
          </p>
          <Button type="submit" form={REQUEST_OPENER_FORM} name="new" value="later">
            <Plus aria-hidden="true" />
            Create First Request
          </Button>
        </section>
      ) : (
        <RequestGroups
          items={items}
          lists={lists}
          pending={pending}
          pageQuery={pageQuery}
          onMove={onMove}
        />
      )}
    </div>
  );
}

function RequestGroups({
  items,
  lists,
  pending,
  pageQuery,
  onMove,
}: {
  items: CustomerRequest[];
  lists: Record<Priority, RequestListPage>;
  pending: number;
  pageQuery: string;
  onMove(event: React.FormEvent<HTMLFormElement>, id: string, dir: "up" | "down"): Promise<void>;
}) {
  return (
    <>
      {GROUPS.map((group) => {
        const list = lists[group.priority];
        const members = items.filter(
          (request) => request.priority === group.priority && isOnToDoList(request),
        );
        const headingId = `group-${group.priority}`;
        return (
          <section key={group.priority} aria-labelledby={headingId} className="grid gap-3">
            <div className="flex items-center justify-between gap-2 border-b pb-2">
              <h3 id={headingId} className="font-semibold">
                {`${group.label} (${list.total})`}
              </h3>
              <Button
                type="submit"
                form={REQUEST_OPENER_FORM}
                name="new"
                value={group.priority}
                variant="outline"
                size="icon"
                title={`Add to ${group.label}`}
              >
                <Plus aria-hidden="true" />
                <span className="sr-only">Add to {group.label}</span>
              </Button>
            </div>
            {list.total === 0 ? (
              <p className="rounded-md bg-muted px-4 py-6 text-center text-sm text-muted-foreground">
                {group.empty}
              </p>
            ) : (
              <ol className="grid gap-3" aria-labelledby={headingId}>
                {members.map((request, index) => (
                  <li key={request.id}>
                    <RequestCard
                      request={request}
                      editForm={REQUEST_OPENER_FORM}
                      move={{
                        // First and last of the whole group, not of this page of it.
                        isFirst: list.page === 1 && index === 0,
                        isLast: list.page === list.pages && index === members.length - 1,
                        pending: pending > 0,
                        pageQuery,
                        onMove: (event, direction) => void onMove(event, request.id, direction),
                      }}
                    />
                  </li>
                ))}
              </ol>
            )}
            <ListPager name={group.priority} list={list} />
          </section>
        );
      })}
    </>
  );
}
