import { describe, expect, it } from "vitest";
import {
  FINAL_VISIT_STATUSES,
  isFinalVisit,
  isOpenVisit,
  mayTransition,
  refusalMessage,
  VISIT_STATUSES,
  VISIT_TRANSITIONS,
} from "./visit-state";

/* The table itself; tests/integration/visit-life.test.ts holds the trigger to it. */
describe("a visit's transitions", () => {
  it("never leave an ended visit and never return to booked", () => {
    for (const end of FINAL_VISIT_STATUSES) expect(VISIT_TRANSITIONS[end]).toEqual([]);
    for (const from of VISIT_STATUSES) expect(mayTransition(from, "booked")).toBe(false);
    expect(mayTransition("in_progress", "canceled")).toBe(false);
    expect(mayTransition("booked", "completed")).toBe(true);
  });

  it("tell open visits from ended ones", () => {
    expect(VISIT_STATUSES.filter(isOpenVisit)).toEqual(["booked", "on_the_way", "in_progress"]);
    expect(VISIT_STATUSES.filter(isFinalVisit)).toEqual(["completed", "canceled", "no_show"]);
  });

  it("word each refusal for the person who asked", () => {
    expect(refusalMessage("completed", "canceled")).toBe(
      "This visit is completed and cannot be canceled.",
    );
    expect(refusalMessage("canceled", "completed")).toBe("This visit is already canceled.");
    expect(refusalMessage("in_progress", "canceled")).toBe(
      "This visit is in progress and cannot be canceled.",
    );
  });
});
