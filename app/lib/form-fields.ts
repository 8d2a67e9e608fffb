/**
 * A posted form as the schemas read it: one value per field, except a field sent more than once
 * (only a hand-made request does that), which stays a list so the schema refuses it in plain
 * words instead of silently keeping one of the values.
 */
export function formFields(formData: FormData, names?: readonly string[]) {
  const fields: Record<string, FormDataEntryValue | FormDataEntryValue[]> = {};
  for (const name of names ?? new Set(formData.keys())) {
    const all = formData.getAll(name);
    if (all.length) fields[name] = all.length > 1 ? all : all[0];
  }
  return fields;
}
