import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";

/** What is wrong with the time, with 'Book anyway' and why (ADR 050). */
export function BookAnywayWarnings({
  id,
  warnings,
  reasonName,
  bookAnywayName,
  disabled,
}: {
  id: string;
  warnings: string[];
  reasonName: string;
  bookAnywayName: string;
  disabled: boolean;
}) {
  return (
    <div
      role="alert"
      className="grid gap-2 rounded-md border border-amber-600/50 bg-amber-50 p-3 text-amber-950 dark:bg-amber-950/30 dark:text-amber-50"
    >
      <p className="font-medium">Please check before booking:</p>
      <ul className="list-disc pl-5 text-sm">
        {warnings.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ul>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-override-reason`}>Why book anyway (optional)</Label>
        <Input id={`${id}-override-reason`} name={reasonName} maxLength={200} disabled={disabled} />
      </div>
      <Button
        type="submit"
        name={bookAnywayName}
        value="on"
        variant="outline"
        className="justify-self-start"
        disabled={disabled}
      >
        Book anyway
      </Button>
    </div>
  );
}
