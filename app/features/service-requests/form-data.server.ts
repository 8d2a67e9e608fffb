import { parseWithZod } from "@conform-to/zod/v4";
import { serviceRequestSchema } from "./schema";

/** Multipart fields as FormData, so one parser serves plain and multipart posts. */
export function fieldsToFormData(fields: Record<string, string>) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.set(name, value);
  return formData;
}

/** The server's re-validation of the request form (the same Zod schema as the dialog). */
export function parseServiceRequestForm(formData: FormData) {
  const submission = parseWithZod(formData, { schema: serviceRequestSchema });
  if (submission.status === "success") return { ok: true as const, value: submission.value };
  return { ok: false as const, result: submission.reply() };
}
