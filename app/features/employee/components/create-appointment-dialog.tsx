import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { PlusIcon, XIcon } from "lucide-react";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { href, useFetcher } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { FormField } from "~/components/ui/conform-fields";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import {
  APPOINTMENT_NOTES_MAX_LENGTH,
  TASK_MAX_LENGTH,
  createAppointmentSchema,
} from "~/features/appointments";
import type { EmployeeChoice } from "~/features/accounts/index.server";
import type {
  CustomerChoice,
  CustomerHome,
  OpenRequestChoice,
} from "~/features/customers/index.server";
import { statusLabel } from "~/features/service-requests";
import { onVisitLabel } from "~/features/visits";
import { MemberVisitFields } from "~/features/memberships";
import { SecondHandymanField } from "./second-handyman-field";
import { addYears, businessToday, DATE_WINDOW } from "~/lib/business-calendar";
import type { FormAnswer } from "~/lib/form-answer";

/** "First Last", with the e-mail only where another customer has the same name. */
function customerLabel(customer: CustomerChoice) {
  return customer.sharedName ? `${customer.name} (${customer.email})` : customer.name;
}

const PRIORITY_GROUPS = [
  { priority: "next", label: "Next" },
  { priority: "later", label: "Later" },
] as const;

type SearchResult = { ok: true; kind: "search"; customers: CustomerChoice[]; more: boolean };
type CustomerResult =
  | {
      ok: true;
      kind: "customer";
      homes: CustomerHome[];
      openRequests: OpenRequestChoice[];
      /** Her dedicated handyman: the default of 'Assign Employee' (ADR 088). */
      dedicatedHandymanId: string | null;
    }
  | { ok: false; message: string };
export function CreateAppointmentDialog({
  open,
  onOpenChange,
  employees,
  today,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  employees: EmployeeChoice[];
  today: string;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Create New Appointment</DialogTitle>
          <DialogDescription>
            Schedule a new appointment with a customer and define the work to be done.
          </DialogDescription>
        </DialogHeader>
        {open && (
          <CreateAppointmentForm
            employees={employees}
            today={today}
            onDone={() => onOpenChange(false)}
            onCancel={() => onOpenChange(false)}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function CreateAppointmentForm({
  employees,
  today,
  onDone,
  onCancel,
}: {
  employees: EmployeeChoice[];
  today: string;
  onDone: () => void;
  onCancel: () => void;
}) {
  const id = useId();
  const create = useFetcher<FormAnswer & { warnings?: string[] }>();
  const search = useFetcher<SearchResult>();
  const options = useFetcher<CustomerResult>();

  const [query, setQuery] = useState("");
  const [customerId, setCustomerId] = useState("");
  const [homeId, setHomeId] = useState("");
  const [picked, setPicked] = useState<CustomerChoice | null>(null);
  // A member's visit booked as an extra visit (ADR 012).
  const [asExtra, setAsExtra] = useState(false);

  // The customer list follows what is typed, a moment after typing stops.
  const searchLoad = search.load;
  useEffect(() => {
    const timer = setTimeout(
      () => searchLoad(`${href("/employee/customer-options")}?q=${encodeURIComponent(query)}`),
      query ? 250 : 0,
    );
    return () => clearTimeout(timer);
  }, [query, searchLoad]);

  const optionsLoad = options.load;
  useEffect(() => {
    if (customerId)
      optionsLoad(
        `${href("/employee/customer-options")}?customerId=${encodeURIComponent(customerId)}`,
      );
  }, [customerId, optionsLoad]);

  const customerData =
    customerId && options.state === "idle" && options.data?.ok && options.data.kind === "customer"
      ? options.data
      : null;
  const homes = useMemo(() => customerData?.homes ?? [], [customerData]);
  const openRequests = customerData?.openRequests ?? [];

  // One home (the usual case): choose it. A different customer: forget the old choice.
  useEffect(() => {
    setHomeId((current) =>
      homes.some((home) => home.id === current) ? current : homes.length === 1 ? homes[0].id : "",
    );
  }, [homes]);

  const found = search.data?.ok ? search.data : null;
  const choices = useMemo(() => {
    const listed = found?.customers ?? [];
    // Keep the chosen customer selectable while the list shows other matches.
    return picked && !listed.some((c) => c.userId === picked.userId) ? [picked, ...listed] : listed;
  }, [found, picked]);

  const schema = useMemo(() => createAppointmentSchema(today), [today]);
  const [form, fields] = useForm({
    id: `create-appointment-${id}`,
    lastResult: create.state === "idle" ? create.data?.result : undefined,
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    defaultValue: { tasks: [{ description: "" }] },
    onValidate({ formData }) {
      return parseWithZod(formData, { schema: createAppointmentSchema(businessToday()) });
    },
  });
  const tasks = fields.tasks.getFieldList();
  const taskValues = (fields.tasks.value ?? []) as (
    { description?: string; serviceRequestId?: string } | undefined
  )[];
  const linkedIds = new Set(taskValues.map((t) => t?.serviceRequestId).filter(Boolean));

  // The result of a submission: a toast, and the dialog closes on success.
  const handled = useRef<unknown>(null);
  useEffect(() => {
    if (create.state !== "idle" || !create.data || handled.current === create.data) return;
    handled.current = create.data;
    if (create.data.ok) {
      toast.success("Appointment created successfully");
      onDone();
    } else if (create.data.warnings?.length) {
      // Shown in the form, with 'Book anyway' (ADR 050).
    } else {
      toast.error(create.data.message || "Failed to create appointment");
    }
  }, [create.state, create.data, onDone]);

  const creating = create.state !== "idle";
  // What is wrong with the time, until staff change it or book anyway.
  const warnings = create.state === "idle" && !create.data?.ok ? create.data?.warnings : undefined;
  const placeError = fields.customerId.errors?.[0] ?? fields.homeId.errors?.[0];
  const placeErrorId = `${id}-place-error`;

  /** A checked request becomes a planned task (in the first blank row, if any); unchecked,
   * its task goes (a lone row is emptied instead: one row always remains). */
  function toggleExistingTask(request: OpenRequestChoice, checked: boolean) {
    if (checked) {
      const value = { description: request.title, serviceRequestId: request.id };
      const blankIndex = taskValues.findIndex(
        (t) => !t?.description?.trim() && !t?.serviceRequestId,
      );
      if (blankIndex >= 0 || tasks.length === 0) {
        form.update({ name: fields.tasks.name, index: Math.max(0, blankIndex), value });
      } else {
        form.insert({ name: fields.tasks.name, defaultValue: value });
      }
      return;
    }
    const index = taskValues.findIndex((t) => t?.serviceRequestId === request.id);
    if (index < 0) return;
    if (tasks.length > 1) {
      form.remove({ name: fields.tasks.name, index });
    } else {
      form.update({
        name: fields.tasks.name,
        index,
        value: { description: "", serviceRequestId: "" },
      });
    }
  }

  return (
    <create.Form
      method="post"
      action={href("/employee/appointments")}
      {...getFormProps(form)}
      className="grid min-w-0 gap-4"
    >
      <fieldset
        className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-4 sm:grid-cols-2"
        disabled={creating}
      >
        <legend className="sr-only">Customer and property</legend>
        {/* The first customers by name are listed; the search asks the server for others.
            Its label avoids the word "customer", so "Select Customer" stays the one field
            a person (or a test) finds by that word. */}
        <div className="grid gap-1.5 sm:col-span-2">
          <Label htmlFor={`${id}-find`}>Find by name, e-mail or phone</Label>
          <Input
            id={`${id}-find`}
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={(event) => {
              // Enter searches now; it must not submit the appointment form.
              if (event.key === "Enter") {
                event.preventDefault();
                searchLoad(`/employee/customer-options?q=${encodeURIComponent(query)}`);
              }
            }}
            maxLength={100}
            autoComplete="off"
            aria-describedby={`${id}-find-hint`}
          />
          <p id={`${id}-find-hint`} className="text-xs text-muted-foreground" aria-live="polite">
            {search.state !== "idle" || !found
              ? "Searching..."
              : found.more
                ? query.trim()
                  ? `Showing the first ${found.customers.length} matches by name. Type more to narrow them.`
                  : `Showing the first ${found.customers.length} customers by name. Search to find others.`
                : `${found.customers.length} ${
                    found.customers.length === 1 ? "customer" : "customers"
                  }${query.trim() ? " found" : ""}, listed by name`}
          </p>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={fields.customerId.id}>Select Customer</Label>
          <NativeSelect
            id={fields.customerId.id}
            name={fields.customerId.name}
            value={customerId}
            onChange={(event) => {
              const value = event.target.value;
              setCustomerId(value);
              setPicked(choices.find((c) => c.userId === value) ?? null);
            }}
            aria-invalid={placeError ? true : undefined}
            aria-describedby={placeError ? placeErrorId : undefined}
          >
            <NativeSelectOption value="">Choose a customer</NativeSelectOption>
            {choices.map((customer) => (
              <NativeSelectOption key={customer.userId} value={customer.userId}>
                {customerLabel(customer)}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
        {homes.length > 0 ? (
          <div className="grid gap-1.5">
            <Label htmlFor={fields.homeId.id}>Select Property</Label>
            <NativeSelect
              id={fields.homeId.id}
              name={fields.homeId.name}
              value={homeId}
              onChange={(event) => setHomeId(event.target.value)}
              aria-invalid={placeError ? true : undefined}
              aria-describedby={placeError ? placeErrorId : undefined}
            >
              <NativeSelectOption value="">Choose a property</NativeSelectOption>
              {homes.map((home) => (
                <NativeSelectOption key={home.id} value={home.id}>
                  {home.address}, {home.city}, {home.state} {home.zipCode}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </div>
        ) : customerData ? (
          <p className="self-end text-sm text-muted-foreground">
            This customer has no property on file yet.
          </p>
        ) : null}
        {placeError && (
          <p id={placeErrorId} role="alert" className="text-sm text-destructive sm:col-span-2">
            {placeError}
          </p>
        )}
      </fieldset>

      <fieldset
        className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-4 sm:grid-cols-3"
        disabled={creating}
      >
        <legend className="sr-only">When and who</legend>
        <div className="grid gap-1.5 sm:col-span-3">
          <Label htmlFor={fields.assignedEmployeeId.id}>Assign Employee (optional)</Label>
          <NativeSelect
            // Drawn again with the chosen customer's dedicated handyman as the default.
            key={customerData?.dedicatedHandymanId ?? "none"}
            id={fields.assignedEmployeeId.id}
            name={fields.assignedEmployeeId.name}
            defaultValue={
              employees.some((e) => e.userId === customerData?.dedicatedHandymanId)
                ? (customerData?.dedicatedHandymanId ?? "")
                : ""
            }
          >
            <NativeSelectOption value="">Unassigned</NativeSelectOption>
            {employees.map((employee) => (
              <NativeSelectOption key={employee.userId} value={employee.userId}>
                {employee.name}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
        <SecondHandymanField
          id={fields.secondHandymanId.id}
          name={fields.secondHandymanId.name}
          errors={fields.secondHandymanId.errors}
          employees={employees}
        />
        <FormField
          meta={fields.scheduledDate}
          label="Date"
          type="date"
          min={today}
          max={addYears(today, DATE_WINDOW.schedule.yearsAhead)}
        />
        <FormField meta={fields.startTime} label="Start Time" type="time" />
        <FormField meta={fields.endTime} label="End Time" type="time" />
        <MemberVisitFields
          customerId={customerId}
          date={String(fields.scheduledDate.value ?? "")}
          startTime={String(fields.startTime.value ?? "")}
          endTime={String(fields.endTime.value ?? "")}
          onEndTime={(end) => form.update({ name: fields.endTime.name, value: end })}
          asExtra={asExtra}
          onAsExtra={setAsExtra}
        />
      </fieldset>

      <fieldset className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-3" disabled={creating}>
        <legend className="mb-1 font-semibold">Planned Tasks</legend>
        {customerData && (
          <fieldset className="grid min-w-0 gap-2 rounded-md border p-3">
            <legend className="px-1 text-sm font-medium">Add Existing Customer Tasks</legend>
            {openRequests.length === 0 ? (
              <p className="text-sm text-muted-foreground">No open requests to add</p>
            ) : (
              PRIORITY_GROUPS.map(({ priority, label }) => {
                const group = openRequests.filter((request) => request.priority === priority);
                if (group.length === 0) return null;
                return (
                  <fieldset key={priority} className="grid min-w-0 gap-1.5">
                    <legend className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                      {label}
                    </legend>
                    <ul className="grid gap-1.5">
                      {group.map((request) => {
                        const checkboxId = `${id}-request-${request.id}`;
                        return (
                          <li key={request.id} className="flex min-w-0 items-start gap-2">
                            <input
                              id={checkboxId}
                              type="checkbox"
                              className="mt-0.5 size-4 shrink-0 accent-primary"
                              checked={!request.onVisitDate && linkedIds.has(request.id)}
                              // Already on another upcoming visit: shown, not offered.
                              disabled={Boolean(request.onVisitDate)}
                              onChange={(event) =>
                                toggleExistingTask(request, event.target.checked)
                              }
                              aria-describedby={`${checkboxId}-status`}
                            />
                            <Label
                              htmlFor={checkboxId}
                              className="block min-w-0 leading-snug font-normal break-words"
                            >
                              {request.title}
                            </Label>
                            <span
                              id={`${checkboxId}-status`}
                              className="ml-auto shrink-0 text-xs text-muted-foreground"
                            >
                              {request.onVisitDate
                                ? onVisitLabel(request.onVisitDate)
                                : statusLabel(request.status)}
                            </span>
                          </li>
                        );
                      })}
                    </ul>
                  </fieldset>
                );
              })
            )}
          </fieldset>
        )}
        <ol className="grid gap-2">
          {tasks.map((task, index) => {
            const taskFields = task.getFieldset();
            return (
              <li key={task.key} className="grid gap-1">
                <div className="flex items-center gap-2">
                  <Label htmlFor={taskFields.description.id} className="sr-only">
                    Task {index + 1}
                  </Label>
                  <Input
                    {...getInputProps(taskFields.description, { type: "text" })}
                    required
                    className="w-auto flex-1"
                    maxLength={TASK_MAX_LENGTH}
                    placeholder={`Task ${index + 1}`}
                  />
                  <input {...getInputProps(taskFields.serviceRequestId, { type: "hidden" })} />
                  {tasks.length > 1 && (
                    <Button
                      {...form.remove.getButtonProps({ name: fields.tasks.name, index })}
                      variant="ghost"
                      size="icon"
                      aria-label={`Remove task ${index + 1}`}
                    >
                      <XIcon aria-hidden="true" />
                    </Button>
                  )}
                </div>
                {taskFields.description.errors && (
                  <p id={taskFields.description.errorId} className="text-sm text-destructive">
                    {taskFields.description.errors[0]}
                  </p>
                )}
              </li>
            );
          })}
        </ol>
        {fields.tasks.errors && (
          <p id={fields.tasks.errorId} role="alert" className="text-sm text-destructive">
            {fields.tasks.errors[0]}
          </p>
        )}
        <Button
          {...form.insert.getButtonProps({
            name: fields.tasks.name,
            defaultValue: { description: "" },
          })}
          variant="outline"
          size="sm"
          className="justify-self-start"
        >
          <PlusIcon aria-hidden="true" />
          Add Task
        </Button>
      </fieldset>

      <div className="grid gap-1.5">
        <Label htmlFor={fields.notes.id}>Notes (Optional)</Label>
        <Textarea
          {...getTextareaProps(fields.notes)}
          maxLength={APPOINTMENT_NOTES_MAX_LENGTH}
          rows={3}
          disabled={creating}
        />
      </div>

      {form.errors && (
        <p id={form.errorId} role="alert" className="text-sm text-destructive">
          {form.errors[0]}
        </p>
      )}

      {warnings?.length ? (
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
            <Input
              id={`${id}-override-reason`}
              name={fields.overrideReason.name}
              maxLength={200}
              disabled={creating}
            />
          </div>
          <Button
            type="submit"
            name={fields.bookAnyway.name}
            value="on"
            variant="outline"
            className="justify-self-start"
            disabled={creating}
          >
            Book anyway
          </Button>
        </div>
      ) : null}

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel} disabled={creating}>
          Cancel
        </Button>
        <Button type="submit" disabled={creating}>
          {creating ? "Creating..." : "Create Appointment"}
        </Button>
      </DialogFooter>
    </create.Form>
  );
}
