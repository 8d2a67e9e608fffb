import { useEffect, useRef } from "react";
import { useActionData, useFetcher } from "react-router";
import { showToast } from "~/lib/lazy-toast";
import type { LeadResult } from "../result";

/**
 * One lead form's state. With JavaScript the form posts through a fetcher and the answer
 * becomes a toast (fields emptied or kept as the result says, focus on the first bad field);
 * without JavaScript the browser posts the page and the answer arrives as action data, shown
 * inline by the form.
 */
export function useLeadForm<Field extends string>(key: string) {
  const fetcher = useFetcher<LeadResult<Field>>({ key });
  const pageResult = useActionData() as LeadResult<Field> | undefined;
  const formRef = useRef<HTMLFormElement>(null);
  const handled = useRef<unknown>(undefined);

  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== "idle" || !result || handled.current === result) return;
    handled.current = result;
    void showToast(result.toast);
    const form = formRef.current;
    if (!form) return;
    if (result.clear) {
      form.reset();
      return;
    }
    const first = Object.keys(result.fieldErrors ?? {})[0];
    const field = first ? form.elements.namedItem(first) : null;
    if (field instanceof HTMLElement) field.focus();
  }, [fetcher.state, fetcher.data]);

  const result = fetcher.data ?? pageResult;
  return {
    fetcher,
    formRef,
    pending: fetcher.state !== "idle",
    result,
    /** The answer came with the page (no JavaScript): show it inline. */
    inline: !fetcher.data && !!pageResult,
    /** Values to put back after a post without JavaScript that kept the fields. */
    kept: !fetcher.data && pageResult && !pageResult.clear ? pageResult.values : undefined,
  };
}
