import type { UIMatch } from "react-router";

/**
 * What a route's `handle` says about the page's JavaScript (ADR 030, React Router's pattern for
 * disabling JavaScript on a route). The public pages say `hydrate: false`: the root renders
 * none of React Router's scripts for them, only the enhancement scripts their routes list.
 */
export type PageHandle<Data = unknown> = {
  hydrate?: boolean;
  /**
   * URLs of enhancement scripts (`import url from "./x.enhance?page-script"`), or a function of
   * the route's loader data that picks them (a page without a form needs no form script).
   */
  scripts?: string[] | ((data: Data) => string[]);
};

/**
 * Whether the matched page hydrates, and the enhancement scripts it loads instead: the
 * innermost route's first, so the layout's own script (which marks the page as enhanced) runs
 * last.
 */
export function pageScripts(matches: UIMatch[]) {
  const handles = matches.map((match) => ({
    handle: (match.handle ?? {}) as PageHandle,
    data: match.data,
  }));
  const scripts = handles
    .toReversed()
    .flatMap(({ handle, data }) =>
      typeof handle.scripts === "function" ? handle.scripts(data) : (handle.scripts ?? []),
    );
  return {
    hydrate: !handles.some(({ handle }) => handle.hydrate === false),
    scripts: [...new Set(scripts)],
  };
}
