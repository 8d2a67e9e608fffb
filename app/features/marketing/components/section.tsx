import type { ReactNode } from "react";
import { SlotPicture } from "~/lib/public-images";

/*
 * Building blocks of the public pages: markup only, these pages run no React in the browser
 * (docs/decisions/030).
 */

/** A page section with its h2; `id` doubles as the in-page anchor (#services, #pricing...). */
export function Section({
  id,
  title,
  intro,
  muted = false,
  image,
  children,
}: {
  id: string;
  title: ReactNode;
  intro?: ReactNode;
  muted?: boolean;
  /** The section's picture (its slot in the content files), shown under the introduction. */
  image?: string;
  children: ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-heading`}
      className={`scroll-mt-16 px-4 py-16 sm:py-20 ${muted ? "bg-muted" : ""}`}
    >
      <div className="mx-auto max-w-6xl">
        <div className="mx-auto max-w-3xl text-center">
          <h2 id={`${id}-heading`} className="text-3xl font-bold tracking-tight sm:text-4xl">
            {title}
          </h2>
          {intro && <p className="mt-4 text-lg text-muted-foreground">{intro}</p>}
        </div>
        {image && <SlotPicture html={image} className="mx-auto mt-8 max-w-2xl" />}
        <div className="mt-10">{children}</div>
      </div>
    </section>
  );
}

export const CARD = "rounded-xl border bg-card p-6 text-card-foreground shadow-sm";
