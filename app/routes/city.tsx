import type { Route } from "./+types/city";

function cityName(pathname: string) {
  return pathname
    .replace(/^\/|-handyman\/?$/g, "")
    .split("-")
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join(" ");
}

export function loader({ request }: Route.LoaderArgs) {
  return { city: cityName(new URL(request.url).pathname) };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `${loaderData?.city} Handyman Services` }];
}

export default function CityPage({ loaderData }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-4xl px-4 py-16">
      <h1 className="text-4xl font-bold">{loaderData.city} Handyman Services</h1>
    </section>
  );
}
