import { Icon } from "~/components/icons";
import { buttonVariants } from "~/components/ui/button-variants";
import { HomeLogoLink } from "./home-logo-link";
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
        <HomeLogoLink
          className="min-w-0"
          markClassName="shrink-0"
          nameClassName="hidden truncate text-lg md:inline"
        />
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
