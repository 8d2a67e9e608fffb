import { Outlet, redirectDocument } from "react-router";
import type { Route } from "./+types/public-layout";
import siteScript from "~/components/layout/site.enhance?page-script";
import { PageToaster } from "~/components/layout/page-toaster";
import { SiteFooter } from "~/components/layout/site-footer";
import { SiteNav } from "~/components/layout/site-nav";
import type { PageHandle } from "~/lib/page-scripts";

/*
 * The public pages run no React in the browser (ADR 030): plain HTML that works without
 * JavaScript, plus the site's small script (the menu, the disclosures), or a page's own, which
 * includes it.
 */
export const handle: PageHandle = { hydrate: false, script: siteScript };

/** Nothing to load; with it the server renders the pages, which the client loader never does. */
export function loader() {
  return null;
}

/**
 * Only reached from a page React runs (a link from a signed-in page): a public page is never
 * rendered by the browser's React, so the browser loads it as a document instead.
 */
export function clientLoader({ request }: Route.ClientLoaderArgs): never {
  throw redirectDocument(request.url);
}

export default function PublicLayout() {
  return (
    <>
      <a
        href="#main"
        className="sr-only z-50 rounded bg-background px-3 py-2 focus:not-sr-only focus:fixed focus:left-2 focus:top-2"
      >
        Skip to content
      </a>
      <SiteNav />
      <main id="main" className="pt-16">
        <Outlet />
      </main>
      <SiteFooter />
      <PageToaster />
    </>
  );
}
