import { Link } from "react-router";
import { Icon } from "~/components/icons";
import { buttonVariants } from "~/components/ui/button-variants";
import { useBusiness } from "~/lib/business";

/**
 * The header of every signed-in and sign-in page (/auth, /dashboard, /employee and the pages
 * under them): the logo home and the business's phone, then the area's own controls (the
 * profile menu, say) as children. The public pages have their own fixed bar (SiteNav).
 */
export function AppHeader({ children, width = "max-w-5xl" }: AppHeaderProps) {
  const business = useBusiness();
  return (
    <header className="border-b bg-background">
      <div
        className={`mx-auto flex h-16 ${width} items-center justify-between gap-2 px-4 sm:gap-4`}
      >
        <Link
          to="/"
          className="flex min-w-0 items-center gap-2 font-bold text-primary"
          aria-label={`${business.name} home`}
        >
          <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8 shrink-0" focusable="false">
            <rect width="32" height="32" rx="8" fill="currentColor" />
            <path d="M8 17 16 9l8 8v7a1 1 0 0 1-1 1h-4v-5h-6v5H9a1 1 0 0 1-1-1z" fill="#fff" />
          </svg>
          <span className="hidden truncate text-lg leading-tight md:inline">{business.name}</span>
        </Link>
        <div className="flex items-center gap-2">
          {/* Named by the number itself (shown from small screens up, read out at every width). */}
          <a href={business.phoneHref} className={buttonVariants({ variant: "outline" })}>
            <Icon name="phone" />
            <span className="sr-only sm:not-sr-only">{business.phone}</span>
          </a>
          {children}
        </div>
      </div>
    </header>
  );
}

type AppHeaderProps = {
  children?: React.ReactNode;
  /** The page's content width, so the header lines up with it. */
  width?: "max-w-md" | "max-w-2xl" | "max-w-3xl" | "max-w-5xl" | "max-w-6xl";
};
