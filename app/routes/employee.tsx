import type { Route } from "./+types/employee";
import { requireEmployee } from "~/lib/session.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireEmployee(request);
  return {};
}

export function meta() {
  return [{ title: "Employee Dashboard" }];
}

export default function EmployeeDashboard() {
  return (
    <main className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="text-2xl font-bold">Employee Dashboard</h1>
      <p className="text-muted-foreground">Manage all customer requests and appointments</p>
    </main>
  );
}
