import * as React from "react";

import { cn } from "../../lib/utils";

/** Decorative loading placeholder; mark the loading region with `aria-busy` instead. */
function Skeleton({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      data-slot="skeleton"
      aria-hidden="true"
      className={cn("animate-pulse rounded-md bg-foreground/10", className)}
      {...props}
    />
  );
}

export { Skeleton };
