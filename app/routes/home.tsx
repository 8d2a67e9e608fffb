import type { Route } from "./+types/home";
import { useBusiness } from "~/root";

export function meta({ matches }: Route.MetaArgs) {
  const name = matches[0]?.loaderData?.business.name ?? "";
  return [
    { title: `${name} | Your Dedicated Handyman in Metro Atlanta` },
    {
      name: "description",
      content:
        "A dedicated, vetted handyman for a flat monthly price. Repairs, upgrades and upkeep across metro Atlanta.",
    },
  ];
}

export default function Home() {
  const business = useBusiness();
  return (
    <section className="mx-auto max-w-4xl px-4 py-16">
      <h1 className="text-4xl font-bold">Your dedicated handyman, one flat monthly price</h1>
      <p className="mt-4 text-lg">
        Call <a href={business.phoneHref}>{business.phone}</a> for a free consultation.
      </p>
    </section>
  );
}
