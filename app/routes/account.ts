import type { Route } from "./+types/account";
import { answerAccountIntent, readOwnHome } from "~/features/accounts/account.server";

/* /account: the signed-in person's own account (the accounts feature answers). */

export function loader({ request }: Route.LoaderArgs) {
  return readOwnHome(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return answerAccountIntent(request, context);
}
