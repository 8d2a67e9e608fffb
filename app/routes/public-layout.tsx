import { Outlet } from "react-router";
import { useExpandedSummaries, useSpaceOnLinkButtons } from "~/components/disclosure";
import { SiteFooter } from "~/components/layout/site-footer";
import { SiteNav } from "~/components/layout/site-nav";

export default function PublicLayout() {
  useExpandedSummaries();
  useSpaceOnLinkButtons();
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
    </>
  );
}
