import { href, Link } from "react-router";
import { useBusiness } from "~/lib/business";

/** The logo and the business's name, linking home: the first thing of every page's header. */
export function HomeLogoLink({ className, markClassName, nameClassName }: HomeLogoLinkProps) {
  const business = useBusiness();
  return (
    <Link
      to={href("/")}
      className={`flex items-center gap-2 font-bold text-primary ${className ?? ""}`}
      aria-label={`${business.name} home`}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 32 32"
        className={`size-8 ${markClassName ?? ""}`}
        focusable="false"
      >
        <rect width="32" height="32" rx="8" fill="currentColor" />
        <path d="M8 17 16 9l8 8v7a1 1 0 0 1-1 1h-4v-5h-6v5H9a1 1 0 0 1-1-1z" fill="#fff" />
      </svg>
      <span className={`leading-tight ${nameClassName}`}>{business.name}</span>
    </Link>
  );
}

type HomeLogoLinkProps = {
  className?: string;
  markClassName?: string;
  /** The name's size and visibility. */
  nameClassName: string;
};
