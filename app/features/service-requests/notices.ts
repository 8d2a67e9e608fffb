import type { FormAnswer } from "~/lib/form-answer";

/*
 * The outcomes of request actions and their notices (SPEC section 8). Actions answer with a
 * code; the browser shows the notice as a toast, or, without JavaScript, the dashboard shows
 * it as a status line after the redirect (?notice=code).
 */

export const REQUEST_NOTICES = {
  created: { kind: "success", title: "Service request created successfully" },
  "create-failed": { kind: "error", title: "Failed to create service request" },
  "no-home": { kind: "error", title: "No property found. Please contact support." },
  "create-limited": {
    kind: "error",
    title: "You have created many requests in the last hour. Please try again later.",
  },
  "photos-limited": {
    kind: "error",
    title: "You have uploaded many photos in the last hour. Please try again later.",
  },
  updated: { kind: "success", title: "Service request updated successfully" },
  "update-failed": { kind: "error", title: "Failed to update service request" },
  deleted: { kind: "success", title: "Service request deleted successfully" },
  "delete-failed": { kind: "error", title: "Failed to delete service request" },
  "order-updated": { kind: "success", title: "Request order updated successfully" },
  "order-failed": { kind: "error", title: "Failed to update request order" },
  "photo-removed": { kind: "success", title: "Photo removed successfully" },
  "photo-remove-failed": { kind: "error", title: "Failed to remove photo" },
} as const satisfies Record<string, { kind: "success" | "error"; title: string }>;

export type RequestNoticeCode = keyof typeof REQUEST_NOTICES;

export function isRequestNoticeCode(value: unknown): value is RequestNoticeCode {
  return typeof value === "string" && Object.hasOwn(REQUEST_NOTICES, value);
}

/**
 * What request actions answer to scripts (fetch) and API clients: the notice's code and its
 * words (`message`), the request concerned, each refused field's messages (`result`).
 * A form posted without JavaScript gets a redirect instead.
 */
export type RequestActionResult = FormAnswer<{ notice: RequestNoticeCode; requestId?: string }>;
