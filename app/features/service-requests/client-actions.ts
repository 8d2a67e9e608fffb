import { toast } from "sonner";
import { PAGE_SCRIPT_HEADER } from "~/lib/page-forms";
import {
  isRequestNoticeCode,
  REQUEST_NOTICES,
  type RequestActionResult,
  type RequestNoticeCode,
} from "./notices";

/** Shows an action's notice as a toast (SPEC section 8). */
export function showRequestNotice(code: RequestNoticeCode) {
  const notice = REQUEST_NOTICES[code];
  if (notice.kind === "success") toast.success(notice.title);
  else toast.error(notice.title);
}

/**
 * Posts a request action from the page's script (X-Page-Script: its refusals come back 200,
 * with the notice in the body). Any failure to reach the server or to read its answer
 * becomes the action's failure notice, so the person always hears how it went.
 */
export async function postRequestAction(
  url: string,
  body: URLSearchParams,
  failure: RequestNoticeCode,
): Promise<RequestActionResult> {
  try {
    const response = await fetch(url, {
      method: "POST",
      body,
      headers: { Accept: "application/json", [PAGE_SCRIPT_HEADER]: "1" },
    });
    const data = (await response.json()) as Partial<RequestActionResult>;
    if (typeof data.ok === "boolean" && isRequestNoticeCode(data.notice)) {
      return data as RequestActionResult;
    }
  } catch (error) {
    console.error(error);
  }
  return { ok: false, notice: failure };
}

/** Form fields, url-encoded: the actions read multipart bodies as photo uploads. */
export function formFields(entries: Record<string, string>) {
  return new URLSearchParams(entries);
}
