import type { Priority, RequestStatus } from "./schema";

export type CustomerRequestPhoto = {
  id: string;
  fileName: string;
  width: number | null;
  height: number | null;
};

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
