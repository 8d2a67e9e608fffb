import { createContext, useContext } from "react";

const NonceContext = createContext<string | undefined>(undefined);

export const NonceProvider = NonceContext.Provider;

/** The CSP nonce of this server render (undefined in the browser and in prerendered pages). */
export function useNonce() {
  return useContext(NonceContext);
}
