import type { RequestStatus } from "~/db/request-status";
import type { Priority } from "./schema";

/** Only the id: the page shows photos by URL, and a member may have a thousand of them. */
export type CustomerRequestPhoto = { id: string };

/** A request as the customer's dashboard receives it. */
export type CustomerRequest = {
  id: string;
  title: string;
  description: string | null;
  priority: Priority;
  status: RequestStatus;
  position: number;
  createdAt: string;
  updatedAt: string;
  /** A task of the home's maintenance plan fallen due (ADR 087). */
  fromPlan: boolean;
  photos: CustomerRequestPhoto[];
};

/** One page of one of the dashboard's lists (a to-do group, or the completed work). */
export type RequestListPage = {
  items: CustomerRequest[];
  /** 1-based; a page number past the end shows the last page. */
  page: number;
  pages: number;
  /** Requests in the whole list, on every page. */
  total: number;
};

/** The dashboard's three lists, a page of each. */
export type CustomerRequestLists = {
  next: RequestListPage;
  later: RequestListPage;
  completed: RequestListPage;
};

export type RequestListName = keyof CustomerRequestLists;
