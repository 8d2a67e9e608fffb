import type { Route } from "./+types/api.auth";
import { auth } from "~/lib/auth.server";

/** Better Auth's own endpoints under /api/auth/*. */
export function loader({ request }: Route.LoaderArgs) {
  return auth().handler(request);
}

export function action({ request }: Route.ActionArgs) {
  return auth().handler(request);
}
