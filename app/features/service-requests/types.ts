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
  photos: CustomerRequestPhoto[];
};
