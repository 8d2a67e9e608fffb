import * as React from "react";

import { cn } from "../../lib/utils";

/** Shared field styling (also used by Textarea and NativeSelect). */
const inputClassName =
  "w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-base text-foreground shadow-xs transition-[color,box-shadow,border-color] outline-hidden placeholder:text-muted-foreground selection:bg-primary selection:text-primary-foreground focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/40 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive aria-invalid:ring-destructive/25 aria-invalid:focus-visible:ring-[3px] md:text-sm";

function Input({ className, type, ...props }: React.ComponentProps<"input">) {
  return (
    <input
      type={type}
      data-slot="input"
      className={cn(
        inputClassName,
        "h-10",
        "file:mr-3 file:inline-flex file:h-7 file:border-0 file:bg-transparent file:text-sm file:font-medium file:text-foreground",
        "[&[type=file]]:py-1.5",
        className,
      )}
      {...props}
    />
  );
}

export { Input, inputClassName };
