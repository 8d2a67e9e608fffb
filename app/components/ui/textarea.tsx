import * as React from "react";

import { cn } from "../../lib/utils";
import { inputClassName } from "./input";

function Textarea({ className, ...props }: React.ComponentProps<"textarea">) {
  return (
    <textarea
      data-slot="textarea"
      className={cn(inputClassName, "field-sizing-content flex min-h-20 resize-y", className)}
      {...props}
    />
  );
}

export { Textarea };
