import * as React from "react";

import { cn } from "../../lib/utils";
import { inputClassName } from "./input-class-name";

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
