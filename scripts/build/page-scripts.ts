import crypto from "node:crypto";
import path from "node:path";
import { build } from "esbuild";
import type { Plugin } from "vite";

/*
 * The public pages' enhancement scripts (docs/decisions/030): small browser modules that the
 * public pages load instead of React. A route imports one as
 *
 *     import leadForm from "~/features/leads/lead-form.enhance?page-script";
 *
 * and gets its URL. At build time the module is bundled on its own by esbuild (with what it
 * imports, no React) and written to build/client/assets/<name>-<hash>.js, where the server
 * sends it precompressed and cached for a year like every hashed asset. Both builds (browser and
 * server) compute the same content hash, so the server's HTML names the file the browser build
 * wrote. In development the URL is the module's source path, which Vite serves as it is.
 */

const SUFFIX = "?page-script";

export type PageScript = { fileName: string; code: string; inputs: string[] };

/** Bundles one enhancement module into a standalone, minified ES module. */
export async function bundlePageScript(file: string, tsconfig?: string): Promise<PageScript> {
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
  const code = result.outputFiles[0].text;
  const name = path
    .basename(file)
    .replace(/\.enhance\.[jt]s$/, "")
    .replace(/\.[jt]s$/, "");
  const hash = crypto.createHash("sha256").update(code).digest("base64url").slice(0, 8);
  return {
    fileName: `assets/${name}-${hash}.js`,
    code,
    inputs: Object.keys(result.metafile.inputs).map((input) => path.resolve(input)),
  };
}

export function pageScripts(): Plugin {
  let command: "build" | "serve" = "build";
  let root = process.cwd();
  let base = "/";
  return {
    name: "page-scripts",
    enforce: "pre",
    configResolved(config) {
      command = config.command;
      root = config.root;
      base = config.base;
    },
    async resolveId(source, importer, options) {
      if (!source.endsWith(SUFFIX)) return null;
      const bare = source.slice(0, -SUFFIX.length);
      const resolved = await this.resolve(bare, importer, { ...options, skipSelf: true });
      if (!resolved) this.error(`page script not found: ${bare}`);
      return `${resolved.id}${SUFFIX}`;
    },
    async load(id, options) {
      if (!id.endsWith(SUFFIX)) return null;
      const file = id.slice(0, -SUFFIX.length);
      if (command === "serve") {
        const url = `/${path.relative(root, file).split(path.sep).join("/")}`;
        return `export default ${JSON.stringify(url)};`;
      }
      const script = await bundlePageScript(file, path.join(root, "tsconfig.json"));
      for (const input of script.inputs) this.addWatchFile(input);
      // Written once, by the browser build; the server build only needs the name.
      if (!options?.ssr) this.emitFile({ type: "asset", fileName: script.fileName, source: script.code });
      return `export default ${JSON.stringify(`${base}${script.fileName}`)};`;
    },
  };
}
