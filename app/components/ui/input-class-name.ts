/*
 * Kept apart from Input (which merges classes with tailwind-merge) so the public pages can
 * style plain inputs without loading it (docs/decisions/008). input.tsx re-exports it.
 */
/** Shared field styling (also used by Textarea and NativeSelect). */
export const inputClassName =
  "w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-base text-foreground shadow-xs transition-[color,box-shadow,border-color] outline-hidden placeholder:text-muted-foreground selection:bg-primary selection:text-primary-foreground focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/40 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive aria-invalid:ring-destructive/25 aria-invalid:focus-visible:ring-[3px] md:text-sm";
