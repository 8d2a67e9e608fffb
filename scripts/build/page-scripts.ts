import path from "node:path";
import { build } from "esbuild";
import type { Plugin } from "vite";

/*
 * The public pages' enhancement scripts (docs/decisions/030): small browser modules that the
 * public pages run instead of React. A route imports one as
 *
 *     import leadForm from "~/features/leads/lead-form.enhance?page-script";
 *
 * and gets its code: the module bundled on its own by esbuild (with what it imports, no React),
 * minified, as a string the root writes into the page as an inline module script. The server
 * allows it by its hash (prerendered pages) or the request's nonce (ADR 001). The same happens
 * in development and in tests, so what runs there is what ships.
 */

const SUFFIX = "?page-script";

/** Bundles one enhancement module into a standalone, minified ES module's source. */
export async function bundlePageScript(file: string, tsconfig?: string) {
  const result = await build({
    entryPoints: [file],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    metafile: true,
    tsconfig,
    logLevel: "silent",
  });
  const code = result.outputFiles[0].text.trim();
  // Written into <script> as it is: it must not be able to end the element early.
  if (/<\/script/i.test(code)) throw new Error(`${file}: the bundle contains "</script"`);
  return { code, inputs: Object.keys(result.metafile.inputs).map((input) => path.resolve(input)) };
}

export function pageScripts(): Plugin {
  let root = process.cwd();
  return {
    name: "page-scripts",
    enforce: "pre",
    configResolved(config) {
      root = config.root;
    },
    async resolveId(source, importer, options) {
      if (!source.endsWith(SUFFIX)) return null;
      const bare = source.slice(0, -SUFFIX.length);
      const resolved = await this.resolve(bare, importer, { ...options, skipSelf: true });
      if (!resolved) this.error(`page script not found: ${bare}`);
      return `${resolved.id}${SUFFIX}`;
    },
    async load(id) {
      if (!id.endsWith(SUFFIX)) return null;
      const file = id.slice(0, -SUFFIX.length);
      const script = await bundlePageScript(file, path.join(root, "tsconfig.json"));
      for (const input of script.inputs) this.addWatchFile(input);
      return `export default ${JSON.stringify(script.code)};`;
    },
  };
}
