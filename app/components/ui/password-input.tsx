import { Eye, EyeOff } from "lucide-react";
import { useState } from "react";
import { Input } from "./input";
import { useHydrated } from "~/lib/use-hydrated";

/**
 * A password field with a show/hide toggle (the toggle needs JavaScript, so it waits for it).
 * The toggle is named by its own text, not by aria-label: a label containing "password" would
 * make it a second match for the field's label ("Password", "New Password").
 */
export function PasswordInput(props: Omit<React.ComponentProps<typeof Input>, "type">) {
  const [visible, setVisible] = useState(false);
  const hydrated = useHydrated();
  return (
    <div className="relative">
      <Input {...props} type={visible ? "text" : "password"} className="pr-11" />
      {hydrated && (
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-pressed={visible}
          aria-controls={props.id}
          className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-md text-muted-foreground outline-hidden hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
        >
          {visible ? (
            <EyeOff aria-hidden="true" className="size-4" />
          ) : (
            <Eye aria-hidden="true" className="size-4" />
          )}
          <span className="sr-only">{visible ? "Hide password" : "Show password"}</span>
        </button>
      )}
    </div>
  );
}
