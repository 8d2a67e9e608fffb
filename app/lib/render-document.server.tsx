import { renderToString } from "react-dom/server";
import { ServerRouter, type EntryContext } from "react-router";
import { NonceProvider } from "./nonce";

/*
 * A document rendered to one string (ADR 111). Every page waits for all its data before it is
 * drawn (ADR 009), so nothing is left to stream: React's string renderer draws the same bytes
 * as its stream renderer waiting for everything (`onAllReady`), without encoding each of the
 * thousands of small pieces of markup into 4 KB byte arrays on the way (a tenth of a dashboard
 * tab's CPU in the profile). The string renderer cannot wait, so React Router's loader data,
 * which its `<StreamTransfer>` reads from a stream while the page renders, is read whole first
 * (`readLoaderData`). app/lib/render-document.test.tsx compares the two renderers
 * byte for byte.
 */

type RouteManifest = EntryContext["manifest"];
const manifestsByMatch = new WeakMap<RouteManifest, Map<string, RouteManifest>>();

/**
 * The route manifest cut to the routes the request matched (ADR 111). `ServerRouter` builds a
 * route object, twice over, for every route of the manifest on each render, to match nothing:
 * the server has matched already, and with `routeDiscovery: "initial"` the document names the
 * manifest file and the matched routes' modules only (`<Scripts>`, `<Links>` and `<Meta>` read
 * the matches). With our 60-odd routes that was a fifth of a millisecond a page. Cut once per
 * set of matched routes and kept.
 */
export function matchedManifest(context: EntryContext): RouteManifest {
  const { manifest } = context;
  const ids = context.staticHandlerContext.matches.map((m) => m.route.id);
  const key = ids.join("\n");
  let byMatch = manifestsByMatch.get(manifest);
  if (!byMatch) manifestsByMatch.set(manifest, (byMatch = new Map()));
  let cut = byMatch.get(key);
  if (!cut) {
    const routes: RouteManifest["routes"] = {};
    for (const id of ids) if (manifest.routes[id]) routes[id] = manifest.routes[id];
    cut = { ...manifest, routes };
    byMatch.set(key, cut);
  }
  return cut;
}

type StreamCache = NonNullable<NonNullable<EntryContext["renderMeta"]>["streamCache"]>;

/**
 * React Router's loader data for the page, read whole, as the cache its `<StreamTransfer>`
 * keeps of the reads it made: one entry per read, holding what the read gave. Given it,
 * `<StreamTransfer>` draws the data's scripts at once instead of waiting for each read. The
 * reader lets go of the stream after, so `ServerRouter` can take its own.
 */
async function readLoaderData(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const cache: StreamCache = {};
  for (let index = 0; ; index++) {
    const { done, value } = await reader.read();
    const read = Promise.resolve() as StreamCache[number];
    read.result = { done, value: decoder.decode(value, { stream: true }) };
    cache[index] = read;
    if (done) break;
  }
  reader.releaseLock();
  return cache;
}

/** The whole document of a page as one buffer; throws what the render threw. */
export async function renderDocument(context: EntryContext, url: string, nonce?: string) {
  if (context.serverHandoffStream) {
    const streamCache = await readLoaderData(context.serverHandoffStream);
    context.renderMeta = { ...context.renderMeta, streamCache };
  }
  const html = renderToString(
    <NonceProvider value={nonce}>
      <ServerRouter
        context={{ ...context, manifest: matchedManifest(context) }}
        url={url}
        nonce={nonce}
      />
    </NonceProvider>,
  );
  return Buffer.from(html.startsWith("<html") ? `<!DOCTYPE html>${html}` : html);
}
