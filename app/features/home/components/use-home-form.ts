import { useFetcher } from "react-router";
import type { FormAnswer } from "~/lib/form-answer";
import { fieldErrorsOf } from "~/lib/form-answer";

/** One form of the home record: posted with a fetcher, its answer and field errors. */
export function useHomeForm() {
  const fetcher = useFetcher<FormAnswer<{ intent: string }>>();
  const answer = fetcher.data;
  return {
    fetcher,
    answer,
    errors: fieldErrorsOf(answer?.result),
    pending: fetcher.state !== "idle",
  };
}

/** A form's key: the page's seed and what the form acts on (ADR 048). */
export function formKey(seed: string, form: string) {
  return `${seed}-${form}`.slice(0, 64);
}
