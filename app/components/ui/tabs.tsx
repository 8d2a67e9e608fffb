import * as React from "react";

import { cn } from "../../lib/utils";

/*
 * Tabs as the WAI-ARIA tabs pattern has them (the markup Radix's Tabs rendered: a tablist of
 * tab buttons, a tabpanel each), without Radix's providers, roving-focus group and presence
 * machinery around every trigger and panel: rendered on every signed-in dashboard answer, they
 * cost about 0.4 ms of the server's CPU a render against 0.02 for the same markup (ADR 102).
 * Behaviour kept: the shown tab is the one tab stop of the list; the arrow keys, Home and End
 * move to a tab and show it (automatic activation); only the shown panel renders its content.
 */

type TabsState = { baseId: string; value: string | undefined; select: (value: string) => void };

const TabsContext = React.createContext<TabsState | null>(null);

function useTabs(part: string) {
  const state = React.useContext(TabsContext);
  if (!state) throw new Error(`<${part}> must be inside <Tabs>`);
  return state;
}

const ids = (baseId: string, value: string) => ({
  trigger: `${baseId}-trigger-${value}`,
  content: `${baseId}-content-${value}`,
});

function Tabs({
  className,
  value,
  defaultValue,
  onValueChange,
  ...props
}: Omit<React.ComponentProps<"div">, "defaultValue" | "dir"> & {
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
}) {
  const baseId = React.useId();
  const [own, setOwn] = React.useState(defaultValue);
  const shown = value ?? own;
  const select = React.useCallback(
    (next: string) => {
      if (value === undefined) setOwn(next);
      onValueChange?.(next);
    },
    [value, onValueChange],
  );
  const state = React.useMemo(() => ({ baseId, value: shown, select }), [baseId, shown, select]);
  return (
    <TabsContext.Provider value={state}>
      <div
        dir="ltr"
        data-orientation="horizontal"
        data-slot="tabs"
        className={cn("flex flex-col gap-2", className)}
        {...props}
      />
    </TabsContext.Provider>
  );
}

const MOVES: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowLeft: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_, n) => n - 1,
};

function TabsList({ className, onKeyDown, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      data-slot="tabs-list"
      data-orientation="horizontal"
      className={cn("tabs-list", className)}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        const move = MOVES[event.key];
        if (!move || event.defaultPrevented) return;
        const tabs = [
          ...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]:not(:disabled)'),
        ];
        const at = tabs.indexOf(document.activeElement as HTMLButtonElement);
        if (at < 0) return;
        event.preventDefault();
        const next = tabs[move(at, tabs.length)];
        next?.focus();
        next?.click();
      }}
      {...props}
    />
  );
}

function TabsTrigger({
  className,
  value,
  onClick,
  ...props
}: Omit<React.ComponentProps<"button">, "value"> & { value: string }) {
  const tabs = useTabs("TabsTrigger");
  const active = tabs.value === value;
  const id = ids(tabs.baseId, value);
  return (
    <button
      type="button"
      role="tab"
      id={id.trigger}
      aria-selected={active}
      aria-controls={id.content}
      data-state={active ? "active" : "inactive"}
      data-orientation="horizontal"
      data-slot="tabs-trigger"
      tabIndex={active ? 0 : -1}
      className={cn("tabs-trigger", className)}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented && !active) tabs.select(value);
      }}
      {...props}
    />
  );
}

function TabsContent({
  className,
  value,
  children,
  ...props
}: React.ComponentProps<"div"> & { value: string }) {
  const tabs = useTabs("TabsContent");
  const active = tabs.value === value;
  const id = ids(tabs.baseId, value);
  return (
    <div
      role="tabpanel"
      id={id.content}
      aria-labelledby={id.trigger}
      hidden={!active}
      tabIndex={0}
      data-state={active ? "active" : "inactive"}
      data-orientation="horizontal"
      data-slot="tabs-content"
      className={cn("tabs-content", className)}
      {...props}
    >
      {active ? children : null}
    </div>
  );
}

export { Tabs, TabsList, TabsTrigger, TabsContent };
