import type { UIMatch } from "react-router";

/**
 * What a route's `handle` says about the page's JavaScript (ADR 030, React Router's pattern for
 * disabling JavaScript on a route). The public pages say `hydrate: false`: the root renders
 * none of React Router's scripts for them, only the one enhancement script the innermost route
 * names (a page's script imports the site's), inline: the page asks for no script file.
 */
export type PageHandle<Data = unknown> = {
  hydrate?: boolean;
  /**
   * The page's enhancement script, as code (`import code from "./x.enhance?page-script"`), or a
   * function of the route's loader data that picks it (a page without a form needs no form
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
