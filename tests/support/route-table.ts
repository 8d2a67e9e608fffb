/**
 * Every route of the app, read from app/routes.ts (the source of truth) and matched with the
 * production build's route modules (which of them export a loader, an action, a page). Tests
 * that must cover every route (authorization matrix, security headers) start from this list, so
 * a route added to app/routes.ts without a test entry fails them.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import routeConfig from "~/routes";

type ConfigEntry = {
  id?: string;
  file: string;
  path?: string;
  index?: boolean;
  children?: ConfigEntry[];
};

export type AppRoute = {
  id: string;
  file: string;
  /** The full URL pattern, e.g. "/dashboard/requests/:requestId"; "/" for the index. */
  pattern: string;
  index: boolean;
  /** Layout routes have no URL of their own. */
  layout: boolean;
  hasLoader: boolean;
  hasAction: boolean;
  /** A page (default export) rather than a resource route. */
  hasPage: boolean;
};

function defaultId(file: string) {
  return file.replace(/\.[jt]sx?$/, "");
}

function flatten(
  entries: ConfigEntry[],
  parentPath = "",
): Omit<AppRoute, "hasLoader" | "hasAction" | "hasPage">[] {
  return entries.flatMap((entry) => {
    const own = entry.path ? `${parentPath}/${entry.path}`.replace(/\/+/g, "/") : parentPath;
    const pattern = own === "" ? "/" : own;
    const layout = !entry.path && !entry.index;
    return [
      {
        id: entry.id ?? defaultId(entry.file),
        file: entry.file,
        pattern,
        index: Boolean(entry.index),
        layout,
      },
      ...flatten(entry.children ?? [], own),
    ];
  });
}

type BuildRoutes = Record<string, { module: Record<string, unknown> }>;

export async function appRoutes(): Promise<AppRoute[]> {
  const build = (await import(pathToFileURL(path.resolve("build/server/index.js")).href)) as {
    routes: BuildRoutes;
  };
  const routes = flatten(routeConfig as ConfigEntry[]);
  return routes.map((route) => {
    const built = build.routes[route.id];
    if (!built) {
      throw new Error(
        `Route ${route.id} of app/routes.ts is not in build/: run \`npm run build\` first.`,
      );
    }
    return {
      ...route,
      hasLoader: typeof built.module.loader === "function",
      hasAction: typeof built.module.action === "function",
      hasPage: typeof built.module.default === "function",
    };
  });
}

/** Fills ":name" segments (and a trailing "*") from `params`. */
export function fillPattern(pattern: string, params: Record<string, string> = {}) {
  return pattern
    .replace(/:(\w+)\??/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined) throw new Error(`No value for :${name} in ${pattern}`);
      return encodeURIComponent(value);
    })
    .replace(/\*$/, params["*"] ?? "");
}
