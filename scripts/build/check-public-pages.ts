// The build's last step (scripts/build.mjs): renders every public page, the sign-in page as a
// visitor gets it (ADR 034), robots.txt and sitemap.xml with the server build and prepares the static fast path's answers (ADR 032), as a
// server does when it starts, and fails if one does not render. Nothing is written.
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { prepareFastPath } from "../../server/fast-path";
import {
  renderPublicPages,
  renderSearchFiles,
  renderVisitorPages,
} from "../../server/public-pages";

const started = Date.now();
const file = path.resolve("build/server/index.js");
const build = (await import(pathToFileURL(file).href)) as ServerBuild;
const pages = await renderPublicPages(build);
const visitorPages = await renderVisitorPages(build);
const { answers } = await prepareFastPath({
  publicPages: pages,
  visitorPages,
  searchFiles: await renderSearchFiles(build),
  clientDir: path.resolve("build/client"),
  imagesDir: path.resolve("build/images"),
});
const bytes = [...pages.values()].reduce((sum, page) => sum + page.html.length, 0);
console.log(
  `Rendered the ${pages.size} public pages (${Math.round(bytes / 1024)} KB), the visitor's ${[...visitorPages.keys()].join(", ")}, robots.txt and sitemap.xml; ${answers.size} answers for the fast path, in ${Date.now() - started} ms`,
);
