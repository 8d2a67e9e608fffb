import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import type { FormAnswer } from "~/lib/form-answer";
import { fieldErrorsOf } from "~/lib/form-answer";

/**
 * One form of the home record: posted with a fetcher, its answer and field errors. `clearOnSave`
 * (the 'Add' forms): the fields are emptied once saved, and only then, so what a person typed
 * stays in place with the messages when it is refused (ADR 104).
 */
export function useHomeForm({ clearOnSave = false } = {}) {
  const fetcher = useFetcher<FormAnswer<{ intent: string }>>();
  const answer = fetcher.data;
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (clearOnSave && answer?.ok) formRef.current?.reset();
  }, [clearOnSave, answer]);
  return {
    fetcher,
    formRef,
    answer,
    errors: fieldErrorsOf(answer?.result),
    pending: fetcher.state !== "idle",
  };
}

/** A form's key: the page's seed and what the form acts on (ADR 048). */
export function formKey(seed: string, form: string) {
  return `${seed}-${form}`.slice(0, 64);
}
