import { href, Link } from "react-router";
import { Icon } from "~/components/icons";
import { QUICK_LINKS } from "~/components/layout/site-footer";
import { buttonVariants } from "~/components/ui/button-variants";
import { HomeLogoLink } from "./home-logo-link";
import { useBusiness } from "~/lib/business";

/*
 * The public pages run no React in the browser (docs/decisions/030): this bar is markup, with
 * plain class strings and inline icons (no cn() or lucide-react, which only a browser bundle
 * would pay for).
 */
function startAligned(classes: string) {
  return classes.replace("justify-center", "justify-start");
}

/**
 * The fixed top navigation bar. The small-screen menu is a <details> element, so it opens
 * and closes with or without JavaScript. The public pages' script (site.enhance.ts) also closes
 * it when a link in the bar is followed and on Escape, which gives the focus back to the toggle.
 */
export function SiteNav() {
  const business = useBusiness();
  const ghost = startAligned(buttonVariants({ variant: "ghost" }));
  const items = (
    <>
      <Link to={href("/auth")} className={ghost}>
        Login
      </Link>
      {/* SPEC: "a Book a Call button to /book-call": a link that presents as a button. */}
      <Link
        to={href("/book-call")}
        role="button"
        className={buttonVariants({ variant: "default" })}
      >
        Book a Call
      </Link>
      <a
        href={business.phoneHref}
        className={startAligned(buttonVariants({ variant: "outline" }))}
        aria-label={`Call us at ${business.phone}`}
      >
        <Icon name="phone" />
        {business.phone}
      </a>
    </>
  );
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <nav
        aria-label="Main"
        className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4"
      >
        <HomeLogoLink nameClassName="text-base sm:text-lg" />
        <div className="hidden items-center gap-2 md:flex">{items}</div>
        <details data-site-menu="" className="group relative md:hidden">
          <summary
            role="button"
            aria-label="Menu"
            aria-controls="site-menu"
            className={`${buttonVariants({ variant: "ghost", size: "icon" })} list-none [&::-webkit-details-marker]:hidden`}
          >
            <Icon name="menu" className="size-5 group-open:hidden" />
            <Icon name="x" className="hidden size-5 group-open:block" />
          </summary>
          <div
            id="site-menu"
            className="absolute right-0 top-12 flex w-64 flex-col gap-2 rounded-lg border bg-background p-3 shadow-lg"
          >
            {/* On a phone the footer is far away: the home page's sections are a tap away here. */}
            {QUICK_LINKS.map((link) => (
              <Link key={link.hash} to={`${href("/")}#${link.hash}`} className={ghost}>
                {link.label}
              </Link>
            ))}
            {items}
          </div>
        </details>
      </nav>
    </header>
  );
}
