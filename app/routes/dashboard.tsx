import type { Route } from "./+types/dashboard";
import { requireCustomer } from "~/lib/session.server";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCustomer(request);
  return { firstName: user.firstName, email: user.email };
}

export function meta() {
  return [{ title: "Dashboard" }];
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-2xl font-bold">Welcome, {loaderData.firstName || loaderData.email}</h1>
      <p className="text-muted-foreground">Manage your service requests and appointments</p>
    </main>
  );
}
