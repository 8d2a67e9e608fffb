import type { ApplianceType } from "~/db/appliance-types";
import type { IsoDate } from "~/lib/business-calendar";
import type { DueState, Month } from "./plan-dates";

export type ApplianceView = {
  id: string;
  type: ApplianceType;
  typeLabel: string;
  brand: string | null;
  model: string | null;
  serialNumber: string | null;
  installedYear: number | null;
  installedOn: IsoDate | null;
  installedEstimated: boolean;
  warrantyEndsOn: IsoDate | null;
  location: string | null;
  filterSize: string | null;
  notes: string | null;
  hasLabelPhoto: boolean;
  /** Why it is flagged (a warranty ending soon, past its usual lifespan); empty when not. */
  flags: string[];
};

export type PlanTaskView = {
  id: string;
  title: string;
  months: number[];
  frequency: string;
  monthsLabel: string;
  estimatedMinutes: number;
  lastDoneOn: IsoDate | null;
  nextDue: Month;
  nextDueLabel: string;
  state: DueState;
};

export type PlanStatusView = {
  dueBy: IsoDate;
  ready: boolean;
  overdue: boolean;
  documented: number;
  tasks: number;
  /** "Your plan is due by January 26, 2027: 4 appliances documented, 12 tasks planned" */
  sentence: string;
};

/** `when`: the moment in the business's time zone, written on the server (the same for all). */
export type HomeHistoryView = { at: string; when: string; who: string; summary: string };

export type LabelReadView = {
  id: string;
  brand: string | null;
  model: string | null;
  serialNumber: string | null;
  installedYear: number | null;
};

/** What the person looking may do with the record. */
export type HomeRights = { appliances: boolean; plan: boolean; markDone: boolean };

export type HomeRecordView = {
  homeId: string;
  address: string;
  appliances: ApplianceView[];
  tasks: PlanTaskView[];
  status: PlanStatusView | null;
  history: HomeHistoryView[];
  rights: HomeRights;
  labelRead: LabelReadView | null;
  /** The start of every form's key on this page (ADR 048): a new one after each change. */
  keySeed: string;
};
