import { useCallback, useState } from "react";
import { href, useNavigate } from "react-router";
import { toast } from "sonner";

/**
 * Signs out through /account, then shows 'Signed out' and goes to /auth. On failure it toasts
 * `errorMessage`, or the server's own message when none is given (SPEC section 8 has three
 * wordings: the profile menu, the customer dashboard and the employee dashboard). A plain fetch
 * rather than a fetcher: a network failure becomes that toast, not the error screen.
 */
export function useSignOut(options: { errorMessage?: string } = {}) {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const { errorMessage } = options;

  const signOut = useCallback(async () => {
    setPending(true);
    let serverMessage = "";
    try {
      const response = await fetch(href("/account"), {
        method: "POST",
        body: new URLSearchParams({ intent: "sign-out", js: "1" }),
        headers: { accept: "application/json" },
      });
      const answer = (await response.json().catch(() => null)) as {
        ok?: boolean;
        message?: string;
      } | null;
      if (response.ok && answer?.ok) {
        toast.success("Signed out", { description: "You have been successfully signed out." });
        navigate(href("/auth"), { replace: true });
        return;
      }
      serverMessage = answer?.message ?? "";
    } catch (error) {
      serverMessage = error instanceof Error ? error.message : "";
    } finally {
      setPending(false);
    }
    toast.error(errorMessage ?? (serverMessage || "Failed to sign out"));
  }, [errorMessage, navigate]);

  return { signOut, pending };
}
