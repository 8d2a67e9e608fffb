import { data, Link } from "react-router";
import type { Route } from "./+types/not-found";
import { logger } from "~/lib/logger.server";

export function loader({ request }: Route.LoaderArgs) {
  const path = new URL(request.url).pathname;
  logger.warn({ path }, "404: page not found");
  return data({ path }, { status: 404 });
}

export function meta() {
  return [{ title: "Page not found" }, { name: "robots", content: "noindex" }];
}

/** The site's script logs the missing path to the console (docs/product.md section 2) on this mark. */
export default function NotFound() {
  return (
    <section
      data-missing-path=""
      className="flex min-h-[60vh] flex-col items-center justify-center gap-4 px-4 text-center"
    >
      <h1 className="text-5xl font-bold">404</h1>
      <p className="text-xl text-muted-foreground">Oops! Page not found</p>
      <Link to="/" className="text-primary underline underline-offset-4">
        Return to Home
      </Link>
    </section>
  );
}
