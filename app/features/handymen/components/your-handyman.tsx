import type { HandymanCard } from "../types";
import { HandymanAvatar } from "./handyman-avatar";

/** The member's dashboard: 'Your handyman', his name and photo (issue 41, item 1). */
export function YourHandyman({ handyman }: { handyman: HandymanCard | null }) {
  return (
    <section
      aria-labelledby="your-handyman-heading"
      className="flex items-center gap-3 rounded-lg border bg-card p-4"
    >
      {handyman ? <HandymanAvatar handyman={handyman} /> : null}
      <div className="grid gap-0.5">
        <h2 id="your-handyman-heading" className="text-sm text-muted-foreground">
          Your handyman
        </h2>
        {handyman ? (
          <p className="text-lg font-semibold" data-testid="your-handyman-name">
            {handyman.name}
          </p>
        ) : (
          <p className="text-muted-foreground">We are choosing your dedicated handyman.</p>
        )}
      </div>
    </section>
  );
}
