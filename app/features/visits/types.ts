import type { VisitStatus } from "~/db/visit-status";

/** An appointment as the customer's dashboard receives it. */
export type CustomerAppointment = {
  id: string;
  /** YYYY-MM-DD, and HH:MM:SS wall-clock times, in the business time zone. */
  scheduledDate: string;
  startTime: string;
  endTime: string;
  /** Booked, on the way or in progress (ADR 046). */
  status: VisitStatus;
  notes: string | null;
  /** A free walk-thru (ADR 061) or a member's visit. */
  kind: "visit" | "walk_thru";
  /** A walk-thru's address is one line, as booked (city, state and ZIP empty). */
  home: { address: string; city: string; state: string; zipCode: string };
  tasks: string[];
  handyman: {
    firstName: string | null;
    lastName: string | null;
    photoUrl: string | null;
    /** Her dedicated handyman, when this one covers for him (ADR 088). */
    coveringFor?: string | null;
    /** The second handyman of a two-handymen visit (ADR 091). */
    second?: string | null;
  } | null;
};
