import { parseWithZod } from "@conform-to/zod/v4";
import { answer } from "~/lib/form-answer.server";
import type { Route } from "./+types/employee.appointments";
import {
  AppointmentRejectedError,
  appointmentWarnings,
  createAppointment,
} from "~/features/visits/staff-booking.server";
import { createAppointmentSchema } from "~/features/visits/staff-booking-schema";
import { guardEmployee } from "~/features/employee/guard.server";
import { BookAnywayNeededError } from "~/features/visits/index.server";
import { unlessBookedAnyway } from "~/features/visits/overrides.server";
import { secondHandymanWarnings } from "~/features/visits/second-handyman.server";
import { businessToday } from "~/lib/business-calendar";
import { logger } from "~/lib/logger.server";

/** 'Create New Appointment': re-validates everything, then writes it all in one transaction. */
export async function action({ request, context }: Route.ActionArgs) {
  const guard = await guardEmployee(request);
  if (guard.denied) return guard.denied;
  const formData = await request.formData();
  const submission = parseWithZod(formData, {
    schema: createAppointmentSchema(businessToday()),
  });
  if (submission.status !== "success") {
    return answer({ ok: false as const, result: submission.reply() }, context, { status: 400 });
  }
  try {
    // The second handyman's time off and working hours are warned about too (ADR 099).
    const warnings = unlessBookedAnyway(
      [
        ...(await appointmentWarnings({ ...submission.value, bookAnyway: true })),
        ...(await secondHandymanWarnings(submission.value)),
      ],
      submission.value,
    );
    const appointment = await createAppointment(submission.value, guard.employee.id, {
      warnings,
    });
    logger.info(
      { appointmentId: appointment.id, employeeId: guard.employee.id },
      "appointment created",
    );
    return {
      ok: true as const,
      appointmentId: appointment.id,
      result: submission.reply({ resetForm: true }),
    };
  } catch (error) {
    if (error instanceof BookAnywayNeededError) {
      // Nothing written: the dialog lists what is wrong and offers 'Book anyway'.
      return answer(
        {
          ok: false as const,
          message: "Please check before booking.",
          warnings: error.warnings,
          result: submission.reply(),
        },
        context,
        { status: 409 },
      );
    }
    if (error instanceof AppointmentRejectedError) {
      return answer(
        {
          ok: false as const,
          message: error.message,
          result: submission.reply({ formErrors: [error.message] }),
        },
        context,
        { status: 400 },
      );
    }
    logger.error({ err: (error as Error).message }, "appointment creation failed");
    return answer(
      {
        ok: false as const,
        message: "Failed to create appointment",
        result: submission.reply({ formErrors: ["Failed to create appointment"] }),
      },
      context,
      { status: 500 },
    );
  }
}
