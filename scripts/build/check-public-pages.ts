// The build's last step (scripts/build.mjs): renders every public page with the server build, as
// a server does when it starts, and fails if one does not render. Nothing is written.
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { renderPublicPages } from "../../server/public-pages";

const started = Date.now();
const file = path.resolve("build/server/index.js");
const build = (await import(pathToFileURL(file).href)) as ServerBuild;
const pages = await renderPublicPages(build);
const bytes = [...pages.values()].reduce((sum, page) => sum + page.html.length, 0);
console.log(
  `Rendered the ${pages.size} public pages (${Math.round(bytes / 1024)} KB) in ${Date.now() - started} ms`,
);
