import type { UIMatch } from "react-router";

/**
 * What a route's `handle` says about the page's JavaScript (ADR 030, React Router's pattern for
 * disabling JavaScript on a route). The public pages say `hydrate: false`: the root renders
 * none of React Router's scripts for them, only the one enhancement script the innermost route
 * names (a page's script imports the site's, so each page makes one request for its code).
 */
export type PageHandle<Data = unknown> = {
  hydrate?: boolean;
  /**
   * The URL of the page's enhancement script (`import url from "./x.enhance?page-script"`), or
   * a function of the route's loader data that picks it (a page without a form needs no form
   * script); undefined leaves the outer route's.
   */
  script?: string | ((data: Data) => string | undefined);
};

/** Whether the matched page hydrates, and the enhancement script it loads instead. */
export function pageScript(matches: UIMatch[]) {
  let hydrate = true;
  let script: string | undefined;
  for (const match of matches) {
    const handle = (match.handle ?? {}) as PageHandle;
    if (handle.hydrate === false) hydrate = false;
    const own = typeof handle.script === "function" ? handle.script(match.data) : handle.script;
    script = own ?? script;
  }
  return { hydrate, script };
}
