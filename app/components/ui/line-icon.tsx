/*
 * Line icons for markup that repeats (a request card's move and edit controls, an appointment
 * card's details): lucide's
 * drawings (ISC licence) as one path each, styled by the .line-icon class (app.css) instead of
 * ten attributes per icon. A card carries three of them; lucide-react's components wrote about
 * 300 bytes each and cost a forwardRef and a class merge per icon per render.
 */
const PATHS = {
  "arrow-up": "M5 12l7-7 7 7M12 19V5",
  "arrow-down": "M12 5v14M19 12l-7 7-7-7",
  pencil:
    "M21.174 6.812a1 1 0 0 0-3.986-3.987L3.842 16.174a2 2 0 0 0-.5.83l-1.321 4.352a.5.5 0 0 0 .623.622l4.353-1.32a2 2 0 0 0 .83-.497zM15 5l4 4",
  // A card's details on staff's Appointments tab, 25 cards a page (circles and rects drawn
  // as arcs, so each icon stays one path).
  "map-pin":
    "M20 10c0 4.993-5.539 10.193-7.399 11.799a1 1 0 0 1-1.202 0C9.539 20.193 4 14.993 4 10a8 8 0 0 1 16 0M15 10a3 3 0 1 1-6 0 3 3 0 1 1 6 0",
  calendar:
    "M8 2v3M16 2v3M5 3h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zM3 9h18",
  clock: "M22 12a10 10 0 1 1-20 0 10 10 0 1 1 20 0M12 6v6l4 2",
  "list-checks": "M13 5h8M13 12h8M13 19h8m-18-2 2 2 4-4M3 7l2 2 4-4",
  user: "M19 21v-2a4 4 0 0 0-4-4H9a4 4 0 0 0-4 4v2M16 7a4 4 0 1 1-8 0 4 4 0 1 1 8 0",
  phone:
    "M13.832 16.568a1 1 0 0 0 1.213-.303l.355-.465A2 2 0 0 1 17 15h3a2 2 0 0 1 2 2v3a2 2 0 0 1-2 2A18 18 0 0 1 2 4a2 2 0 0 1 2-2h3a2 2 0 0 1 2 2v3a2 2 0 0 1-.8 1.6l-.468.351a1 1 0 0 0-.292 1.233 14 14 0 0 0 6.392 6.384",
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

/**
 * The drawings of `names` once, for `LineIconUse` to point at: a page of 25 cards then
 * carries a short `<use>` per icon instead of each path again.
 */
export function LineIconSprite({ names }: { names: LineIconName[] }) {
  return (
    <svg aria-hidden="true" width="0" height="0" className="absolute">
      {names.map((name) => (
        <symbol key={name} id={`line-icon-${name}`} viewBox="0 0 24 24">
          <path d={PATHS[name]} />
        </symbol>
      ))}
    </svg>
  );
}

/** An icon drawn from a `LineIconSprite` on the same page. */
export function LineIconUse({ name, className }: { name: LineIconName; className?: string }) {
  return (
    <svg aria-hidden="true" className={className ? `line-icon ${className}` : "line-icon"}>
      <use href={`#line-icon-${name}`} />
    </svg>
  );
}
