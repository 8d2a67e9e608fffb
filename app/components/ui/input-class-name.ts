/*
 * Kept apart from Input (which merges classes with tailwind-merge) so the public pages can
 * style plain inputs without loading it (docs/decisions/008). input.tsx re-exports it.
 */
/**
 * Shared field styling (also used by Textarea and NativeSelect): the `.input` component class
 * in app.css, one short name in the HTML for the long list of utilities every field repeated
 * (a member's My Home tab has 46 fields). Utilities, a caller's className among them, still
 * override it. `md:text-sm` stays a utility so a caller's text size keeps losing to it at md.
 */
export const inputClassName = "input md:text-sm";
