import { useEffect, useRef } from "react";
import type { FetcherWithComponents } from "react-router";
import { toast } from "sonner";
import type { FormAnswer } from "~/lib/form-answer";

/**
 * Shows one toast per finished fetcher submission: `success` when the action answered
 * { ok: true }, otherwise `failure` (or the server's message when `useServerMessage`).
 */
export function useActionToast(
  fetcher: FetcherWithComponents<unknown>,
  options: {
    success: string;
    successDescription?: string;
    failure: string;
    useServerMessage?: boolean;
    onSuccess?: () => void;
  },
) {
  const handled = useRef<unknown>(null);
  const { success, successDescription, failure, useServerMessage, onSuccess } = options;
  useEffect(() => {
    if (fetcher.state !== "idle" || fetcher.data === undefined) return;
    if (handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    const result = fetcher.data as FormAnswer | null;
    if (result && result.ok) {
      toast.success(success, successDescription ? { description: successDescription } : undefined);
      onSuccess?.();
    } else {
      const message = (useServerMessage && result && !result.ok && result.message) || failure;
      toast.error(message);
    }
  }, [
    fetcher.state,
    fetcher.data,
    success,
    successDescription,
    failure,
    useServerMessage,
    onSuccess,
  ]);
}

/**
 * Shows a page form's answer ({ ok, message }) as a toast once per answer, as the fetchers'
 * forms do (useActionToast): a save is never silent, even when the page's own status line is
 * out of sight. The line stays for a browser without JavaScript.
 */
export function useAnswerToast(answer: { ok: boolean; message: string } | null | undefined) {
  const shown = useRef<unknown>(null);
  useEffect(() => {
    if (!answer || shown.current === answer) return;
    shown.current = answer;
    if (answer.ok) toast.success(answer.message);
    else toast.error(answer.message);
  }, [answer]);
}
