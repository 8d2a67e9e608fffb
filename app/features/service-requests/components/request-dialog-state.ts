import { isPriority } from "../schema";
import type { CustomerRequest, CustomerRequestLists } from "../types";
import type { RequestDialogState } from "./request-dialog";

/**
 * The request dialog the URL opens on the member's dashboard: ?new=next|later creates, ?edit=id
 * edits a request shown on a list (or the one loaded for the link), ?confirm=delete asks first.
 */
export function dialogState(
  params: URLSearchParams,
  data: { requests?: CustomerRequestLists; editing?: CustomerRequest | null },
): RequestDialogState | null {
  const priority = params.get("new");
  if (priority !== null)
    return { kind: "create", priority: isPriority(priority) ? priority : "later" };
  const editId = params.get("edit");
  if (editId && data.requests) {
    const { next, later, completed } = data.requests;
    const request =
      [...next.items, ...later.items, ...completed.items].find((item) => item.id === editId) ??
      (data.editing?.id === editId ? data.editing : undefined);
    // Completed work is closed to edits; an unknown id opens nothing.
    if (request && request.status !== "complete") {
      return { kind: "edit", request, confirmDelete: params.get("confirm") === "delete" };
    }
  }
  return null;
}
