import * as React from "react";
import { ChevronDownIcon } from "lucide-react";

import { cn } from "../../lib/utils";
import { inputClassName } from "./input";

/**
 * A styled native <select> matching <Input>. Works without JavaScript, submits with
 * plain forms, and uses the platform picker on phones. Associate a <Label htmlFor>.
 *
 * `className` goes on the <select>; `wrapperClassName` on the positioning wrapper
 * (full width by default).
 */
function NativeSelect({
  className,
  wrapperClassName,
  size = "default",
  ...props
}: Omit<React.ComponentProps<"select">, "size"> & {
  size?: "sm" | "default";
  wrapperClassName?: string;
}) {
  return (
    <div
      data-slot="native-select-wrapper"
      className={cn("relative w-full has-[select:disabled]:opacity-50", wrapperClassName)}
    >
      <select
        data-slot="native-select"
        data-size={size}
        className={cn(
          inputClassName,
          "h-10 appearance-none pr-9 data-[size=sm]:h-9 data-[size=sm]:py-1.5 disabled:opacity-100 [&[multiple]]:h-auto [&[multiple]]:pr-3",
          className,
        )}
        {...props}
      />
      {!props.multiple && (
        <ChevronDownIcon
          aria-hidden="true"
          data-slot="native-select-icon"
          className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground select-none"
        />
      )}
    </div>
  );
}

function NativeSelectOption({ ...props }: React.ComponentProps<"option">) {
  return <option data-slot="native-select-option" {...props} />;
}

function NativeSelectOptGroup({ className, ...props }: React.ComponentProps<"optgroup">) {
  return <optgroup data-slot="native-select-optgroup" className={cn(className)} {...props} />;
}

export { NativeSelect, NativeSelectOptGroup, NativeSelectOption };
