/*
 * Line icons for markup that repeats (a request card's move and edit controls): lucide's
 * drawings (ISC licence) as one path each, styled by the .line-icon class (app.css) instead of
 * ten attributes per icon. A card carries three of them; lucide-react's components wrote about
 * 300 bytes each and cost a forwardRef and a class merge per icon per render.
 */
const PATHS = {
  "arrow-up": "M5 12l7-7 7 7M12 19V5",
  "arrow-down": "M12 5v14M19 12l-7 7-7-7",
  pencil:
    "M21.174 6.812a1 1 0 0 0-3.986-3.987L3.842 16.174a2 2 0 0 0-.5.83l-1.321 4.352a.5.5 0 0 0 .623.622l4.353-1.32a2 2 0 0 0 .83-.497zM15 5l4 4",
} as const;

export type LineIconName = keyof typeof PATHS;

export function LineIcon({ name, className }: { name: LineIconName; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      aria-hidden="true"
      className={className ? `line-icon ${className}` : "line-icon"}
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
