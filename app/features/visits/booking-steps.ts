/*
 * The 'Book a Visit' steps as URL state (GET forms, so each step works without JavaScript):
 * block → date → start (with the handyman) → tasks → summary and 'Confirm Visit'.
 */
import { href } from "react-router";
import { parseIsoDate, type IsoDate } from "~/lib/business-calendar";
import { isVisitBlock, type OfferedDay, type VisitBlock } from "~/features/availability";
import { UUID_PATTERN } from "~/lib/uuid";

export type BookingChoice = {
  block?: VisitBlock;
  date?: IsoDate;
  startMinute?: number;
  employeeId?: string;
  requestIds: string[];
  /** The member pressed 'Next' on the tasks step with at least one task. */
  tasksChosen: boolean;
  /** The member pressed 'Next' on the tasks step with no task: the step asks again. */
  tasksMissing: boolean;
  /** The member chose to book it as an extra visit (the bank cannot take it). */
  asExtra: boolean;
  /** Only this handyman's times: 'Wait for Dana' or 'Book with Sam' (ADR 088). */
  withId?: string;
  /** 'Two handymen' (ADR 091): only starts where two are free; the fee is charged. */
  two: boolean;
};

const EMPLOYEE_ID = /^[A-Za-z0-9_-]{1,100}$/;

export const CHOOSE_A_TASK_MESSAGE = "Please choose at least one task for the visit.";

export function parseBookingChoice(params: URLSearchParams | FormData): BookingChoice {
  const text = (name: string) => {
    const value = params.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const blockValue = Number(text("block"));
  const block = isVisitBlock(blockValue) ? blockValue : undefined;
  const dateValue = text("date");
  const date = block && dateValue && parseIsoDate(dateValue) ? dateValue : undefined;
  // "540|employee-id": the start and who comes.
  const [startText, employeeText] = (text("start") ?? "").split("|");
  const startNumber = Number(startText);
  const startMinute =
    date && startText && Number.isInteger(startNumber) && startNumber >= 0 && startNumber < 1440
      ? startNumber
      : undefined;
  const employeeId =
    startMinute !== undefined && employeeText ? employeeText.slice(0, 100) : undefined;
  const requestIds = params
    .getAll("task")
    .filter((v): v is string => typeof v === "string" && UUID_PATTERN.test(v))
    .slice(0, 50);
  const pressedNext = startMinute !== undefined && text("tasks") === "chosen";
  const tasksChosen = pressedNext && requestIds.length > 0;
  const tasksMissing = pressedNext && requestIds.length === 0;
  const asExtra = startMinute !== undefined && text("extra") === "1";
  const withText = text("with");
  const withId = block && withText && EMPLOYEE_ID.test(withText) ? withText : undefined;
  const two = Boolean(block) && text("two") === "1";
  return {
    block,
    date,
    startMinute,
    employeeId,
    requestIds,
    tasksChosen,
    tasksMissing,
    asExtra,
    withId,
    two,
  };
}

/** The query string of a choice, up to (not including) the step named. */
export function bookingHref(
  choice: BookingChoice,
  upTo: "block" | "date" | "start" | "tasks" | "summary",
) {
  const params = new URLSearchParams();
  const order = ["block", "date", "start", "tasks", "summary"] as const;
  const keep = (step: (typeof order)[number]) => order.indexOf(step) < order.indexOf(upTo);
  if (keep("block") && choice.block) params.set("block", String(choice.block));
  // 'Wait for Dana' or 'Book with Sam' goes with the block: kept from the day step on.
  if (upTo !== "block" && choice.withId) params.set("with", choice.withId);
  // 'Two handymen' goes with the block too.
  if (upTo !== "block" && choice.two) params.set("two", "1");
  if (keep("date") && choice.date) params.set("date", choice.date);
  if (keep("start") && choice.startMinute !== undefined)
    params.set("start", `${choice.startMinute}|${choice.employeeId ?? ""}`);
  if (keep("tasks")) {
    for (const id of choice.requestIds) params.append("task", id);
    if (choice.tasksChosen) params.set("tasks", "chosen");
  }
  if (upTo === "summary" && choice.asExtra) params.set("extra", "1");
  const search = params.toString();
  return `${href("/dashboard/book")}${search ? `?${search}` : ""}`;
}

/** A day's start times as the start step shows them: each with the first free handyman. */
export function offeredStarts(day: OfferedDay) {
  return {
    date: day.date,
    label: day.label,
    slots: day.slots.map((slot) => ({
      startMinute: slot.startMinute,
      label: slot.label,
      withDedicated: slot.withDedicated,
      handyman: slot.handymen[0],
      /** With 'Two handymen': the one who comes with him. */
      second: slot.handymen[1] ?? null,
    })),
  };
}

export type OfferedStarts = ReturnType<typeof offeredStarts>;
