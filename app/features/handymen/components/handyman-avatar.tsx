import { Avatar, AvatarFallback, AvatarImage } from "~/components/ui/avatar";
import { cn } from "~/lib/utils";
import type { HandymanCard } from "../types";

/** "DW" for Dana Whitfield: what shows when he has no photo. */
export function initialsOf(name: string) {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word.charAt(0).toUpperCase());
  return letters.join("") || "?";
}

/** His photo, or his initials when he has none. */
export function HandymanAvatar({
  handyman,
  className,
}: {
  handyman: Pick<HandymanCard, "name" | "photoUrl">;
  className?: string;
}) {
  return (
    <Avatar className={cn("size-12", className)}>
      {handyman.photoUrl ? (
        <AvatarImage src={handyman.photoUrl} alt={`Photo of ${handyman.name}`} />
      ) : null}
      <AvatarFallback aria-hidden="true">{initialsOf(handyman.name)}</AvatarFallback>
    </Avatar>
  );
}
