import type { Route } from "./+types/employee.handymen";
import { requireEmployee } from "~/lib/session.server";

export async function loader({ request }: Route.LoaderArgs) {
  return { employee: await requireEmployee(request) };
}

export default function Handymen() {
  return <h1>Handymen</h1>;
}
