/*
 * Build step for the prerendered public pages (docs/decisions/008): paint first, hydrate after.
 *
 * React Router puts a <link rel="modulepreload"> for every module of the page in <head>, and
 * its bootstrap <script type="module"> imports the route modules statically. On a slow phone
 * connection those ~115 KB of JavaScript then compete with the HTML and CSS for bandwidth and
 * delay the first paint (measured: LCP 2.1 s with the preloads, 0.8 s without). This rewrite
 * keeps the same modules and the same bootstrap, but starts loading them once the page has
 * painted: the preload links are re-added from the script, and the static imports become
 * dynamic ones awaited before the original bootstrap code runs.
 *
 * The rewrite depends on the shape of React Router's output; if that shape changes, it throws
 * and the build fails, rather than shipping a page that never hydrates.
 */

const PRELOAD = /<link rel="modulepreload" href="([^"]+)"[^>]*?\/?>/g;
const BOOTSTRAP = /<script type="module" async="">([\s\S]*?)<\/script>/;
const STATIC_IMPORT = /import \* as (\w+) from ("[^"]+");\n?/g;
const BARE_IMPORT = /^import ("[^"]+");/gm;

export class DeferHydrationError extends Error {}

export function deferHydration(html: string, file = "page"): string {
  const preloads: string[] = [];
  let page = html.replace(PRELOAD, (_, href: string) => {
    preloads.push(href);
    return "";
  });
  const bootstrap = BOOTSTRAP.exec(page);
  if (!bootstrap) {
    throw new DeferHydrationError(`${file}: React Router's bootstrap module script not found`);
  }
  const body = bootstrap[1];
  const imports = [...body.matchAll(STATIC_IMPORT)].map((m) => ({ name: m[1], source: m[2] }));
  if (imports.length === 0 || !/import\("[^"]+"\);\s*$/.test(body)) {
    throw new DeferHydrationError(`${file}: unexpected bootstrap script shape:\n${body}`);
  }
  const rest = body
    .replace(STATIC_IMPORT, "")
    .replace(BARE_IMPORT, (_, source: string) => `await import(${source});`);
  const script = [
    // After the first paint; the timeout covers background tabs, where frames never come.
    "await new Promise((resolve) => { requestAnimationFrame(() => setTimeout(resolve, 0)); setTimeout(resolve, 1000); });",
    `for (const href of ${JSON.stringify(preloads)}) { const link = document.createElement("link"); link.rel = "modulepreload"; link.href = href; document.head.append(link); }`,
    `const [${imports.map((i) => i.name).join(", ")}] = await Promise.all([${imports
      .map((i) => `import(${i.source})`)
      .join(", ")}]);`,
    rest.trim(),
  ].join("\n");
  page = page.replace(BOOTSTRAP, () => `<script type="module" async="">${script}</script>`);
  return page;
}
