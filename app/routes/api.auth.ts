import type { Route } from "./+types/api.auth";
import { answerAuthApi, readAuthApi } from "~/features/accounts/auth-gateway.server";

/* Better Auth's endpoints under /api/auth/*, behind the product's rules (the accounts feature). */

export function loader({ request }: Route.LoaderArgs) {
  return readAuthApi(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return answerAuthApi(request, context.clientAddress);
}
