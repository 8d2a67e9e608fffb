import { useEffect } from "react";
import { useFetcher, useNavigate } from "react-router";
import { toast } from "sonner";

type SignOutAnswer = { ok: boolean; message: string };

/**
 * Signs out through /account, then shows 'Signed out' and goes to /auth. On failure it toasts
 * `errorMessage`, or the server's own message when none is given (SPEC section 8 has three
 * wordings: the profile menu, the customer dashboard and the employee dashboard).
 */
export function useSignOut(options: { errorMessage?: string } = {}) {
  const fetcher = useFetcher<SignOutAnswer>();
  const navigate = useNavigate();
  const { errorMessage } = options;
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;

  useEffect(() => {
    if (!answer) return;
    if (answer.ok) {
      toast.success("Signed out", { description: "You have been successfully signed out." });
      navigate("/auth", { replace: true });
    } else {
      toast.error(errorMessage ?? (answer.message || "Failed to sign out"));
    }
  }, [answer, errorMessage, navigate]);

  return {
    signOut: () =>
      fetcher.submit({ intent: "sign-out", js: "1" }, { method: "post", action: "/account" }),
    pending: fetcher.state !== "idle",
  };
}
