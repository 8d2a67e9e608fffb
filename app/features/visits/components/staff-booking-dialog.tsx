import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
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
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { APPOINTMENT_NOTES_MAX_LENGTH, createAppointmentSchema } from "../staff-booking-schema";
import type { EmployeeChoice } from "~/features/accounts/index.server";
import { MemberVisitFields } from "~/features/memberships";
import { addYears, businessToday, DATE_WINDOW } from "~/lib/business-calendar";
import type { FormAnswer } from "~/lib/form-answer";
import { CustomerAndPropertyFields, useCustomerChoice } from "./staff-booking-customer-fields";
import { PlannedTaskFields } from "./staff-booking-task-fields";
import { BookAnywayWarnings } from "./book-anyway-warnings";
import { SecondHandymanField } from "./second-handyman-field";

/*
 * Staff's 'Create New Appointment' (ADR 094: the visits feature's booking form): the customer
 * and property, when and who, the planned tasks, notes and, when the time has warnings, 'Book
 * anyway'. The action (routes/employee.appointments.ts) books it through createVisit.
 */

function useAppointmentForm(id: string, today: string, lastResult: FormAnswer["result"]) {
  const schema = useMemo(() => createAppointmentSchema(today), [today]);
  return useForm({
    id: `create-appointment-${id}`,
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    defaultValue: { tasks: [{ description: "" }] },
    onValidate({ formData }) {
      return parseWithZod(formData, { schema: createAppointmentSchema(businessToday()) });
    },
  });
}

export type AppointmentForm = ReturnType<typeof useAppointmentForm>[0];
export type AppointmentFields = ReturnType<typeof useAppointmentForm>[1];

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
  const customer = useCustomerChoice();
  const { customerData } = customer;
  // A member's visit booked as an extra visit (ADR 012).
  const [asExtra, setAsExtra] = useState(false);
  const [form, fields] = useAppointmentForm(
    id,
    today,
    create.state === "idle" ? create.data?.result : undefined,
  );

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

  return (
    <create.Form
      method="post"
      action={href("/employee/appointments")}
      {...getFormProps(form)}
      className="grid min-w-0 gap-4"
    >
      <CustomerAndPropertyFields id={id} fields={fields} customer={customer} disabled={creating} />

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
          customerId={customer.customerId}
          date={String(fields.scheduledDate.value ?? "")}
          startTime={String(fields.startTime.value ?? "")}
          endTime={String(fields.endTime.value ?? "")}
          onEndTime={(end) => form.update({ name: fields.endTime.name, value: end })}
          asExtra={asExtra}
          onAsExtra={setAsExtra}
        />
      </fieldset>

      <PlannedTaskFields
        id={id}
        form={form}
        fields={fields}
        openRequests={customer.openRequests}
        showRequests={Boolean(customerData)}
        disabled={creating}
      />

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
        <BookAnywayWarnings
          id={id}
          warnings={warnings}
          reasonName={fields.overrideReason.name}
          bookAnywayName={fields.bookAnyway.name}
          disabled={creating}
        />
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
