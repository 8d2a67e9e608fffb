import type { Route } from "./+types/book-call.slots";
import { schedulerData } from "~/features/intro-calls/booking.server";

/**
 * GET /book-call/slots: what the booking page's scheduler shows, fresh on every request (the
 * page itself is prerendered, so free times cannot be part of it). Public: visitors book.
 */
export async function loader(_: Route.LoaderArgs) {
  return Response.json(await schedulerData(), { headers: { "Cache-Control": "no-store" } });
}
