import type { Route } from "./+types/employee.today";
import { handymanVisits } from "~/features/visits/today.server";
import { requireStaff } from "~/lib/session.server";

export async function loader({ request }: Route.LoaderArgs) {
  const employee = await requireStaff(request);
  return { employee, visits: await handymanVisits(employee.id, "today") };
}

export default function Today({ loaderData: d }: Route.ComponentProps) {
  return (
    <main>
      <h1>Today</h1>
      <p>{d.visits.length} visits</p>
    </main>
  );
}
