import { href, Link } from "react-router";
import { useBusiness } from "~/lib/business";

const SOCIAL_LINKS = [
  { label: "Facebook", href: "https://www.facebook.com/" },
  { label: "Instagram", href: "https://www.instagram.com/" },
  { label: "Nextdoor", href: "https://nextdoor.com/" },
];

/** The home page's sections, linked from every public page (the footer and the phone menu). */
export const QUICK_LINKS = [
  { label: "Services", hash: "services" },
  { label: "Pricing", hash: "pricing" },
  { label: "About", hash: "about" },
  { label: "Contact", hash: "contact" },
];

const POLICY_LINKS = ["Privacy Policy", "Terms of Service", "Cookie Policy"];

export function SiteFooter() {
  const business = useBusiness();
  return (
    <footer className="border-t bg-muted/40">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="text-lg font-bold text-primary">{business.name}</p>
          <p className="mt-2 text-sm text-muted-foreground">
            Your dedicated handyman for a flat monthly price. Licensed and insured, serving{" "}
            {business.area}.
          </p>
          <ul className="mt-4 flex gap-3" aria-label="Social media">
            {SOCIAL_LINKS.map((link) => (
              <li key={link.label}>
                <a
                  href={link.href}
                  rel="noopener noreferrer"
                  target="_blank"
                  className="text-sm font-medium underline-offset-4 hover:underline"
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </div>
        <nav aria-label="Quick links">
          <h2 className="font-semibold">Quick Links</h2>
          <ul className="mt-3 space-y-2 text-sm">
            {QUICK_LINKS.map((link) => (
              <li key={link.hash}>
                <Link
                  to={`${href("/")}#${link.hash}`}
                  className="underline-offset-4 hover:underline"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="font-semibold">Contact</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <a href={business.phoneHref} className="underline-offset-4 hover:underline">
                {business.phone}
              </a>
            </li>
            <li>
              <a href={`mailto:${business.email}`} className="underline-offset-4 hover:underline">
                {business.email}
              </a>
            </li>
            <li>{business.hours}</li>
            <li>Serving {business.area}</li>
          </ul>
        </div>
        <div>
          <h2 className="font-semibold">Legal</h2>
          <ul className="mt-3 space-y-2 text-sm">
            {/* Placeholders: the policies have no page yet (SPEC section 2). */}
            {POLICY_LINKS.map((label) => (
              <li key={label}>
                <a href="#" className="underline-offset-4 hover:underline">
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <p className="border-t py-4 text-center text-xs text-muted-foreground">
        © {new Date().getFullYear()} {business.name}. All rights reserved.
      </p>
    </footer>
  );
}
