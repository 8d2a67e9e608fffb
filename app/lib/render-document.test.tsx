import { useId } from "react";
import { renderToPipeableStream } from "react-dom/server";
import {
  createRequestHandler,
  Links,
  Meta,
  Outlet,
  Scripts,
  ServerRouter,
  useLoaderData,
  type EntryContext,
  type ServerBuild,
} from "react-router";
import { describe, expect, it } from "vitest";
import { matchedManifest, renderDocument } from "./render-document.server";

/*
 * renderDocument (the string renderer, the loader data read whole, the manifest cut to the
 * matched routes) against React Router's own way of drawing a document (the stream renderer
 * waiting for everything, `<StreamTransfer>` reading the data as it goes, the whole manifest),
 * on pages that React Router's real request handler prepares: the two must be the same bytes,
 * or the browser's hydration would not match the page.
 */

function Layout({ children }: { children: React.ReactNode }) {
  const id = useId();
  return (
    <html lang="en">
      <head>
        <Meta />
        <Links />
      </head>
      <body>
        <label htmlFor={id}>Search</label>
        <input id={id} />
        {children}
        <Scripts />
      </body>
    </html>
  );
}

function Page() {
  const data = useLoaderData<{ title: string; at: Date; items: { id: number; name: string }[] }>();
  const id = useId();
  return (
    <main aria-labelledby={id}>
      <h1 id={id}>{data.title}</h1>
      <p>{data.at.toISOString()}</p>
      <ul>
        {data.items.map((item) => (
          <li key={item.id}>{item.name}</li>
        ))}
      </ul>
    </main>
  );
}

const pageData = {
  title: "Maria's home </script><script>alert(1)</script> & \u2028",
  at: new Date("2026-11-29T12:00:00Z"),
  items: Array.from({ length: 400 }, (_, i) => ({ id: i, name: `Item ${i} — “quoted” <b>` })),
};

function route(id: string, parentId: string | undefined, path: string | undefined, module: object) {
  return {
    server: { id, parentId, path, module },
    asset: {
      id,
      parentId,
      path,
      module: `/assets/${id}.js`,
      imports: [],
      hasAction: false,
      hasLoader: "loader" in module,
      hasClientAction: false,
      hasClientLoader: false,
      hasClientMiddleware: false,
      hasErrorBoundary: false,
    },
  };
}

const routes = [
  route("root", undefined, "", {
    Layout,
    default: () => <Outlet />,
    loader: () => ({ signedIn: true }),
  }),
  route("routes/page", "root", "page", { default: Page, loader: () => pageData }),
  route("routes/other", "root", "other/:id", { default: () => <p>Other</p> }),
  route("routes/plain", "root", "plain", { default: () => <p>No data</p> }),
];

/** A build of the routes above whose entry draws with `render`. */
function buildWith(render: (context: EntryContext) => Promise<Buffer>): ServerBuild {
  return {
    entry: {
      module: {
        handleError: () => undefined,
        default: async (
          _request: Request,
          status: number,
          headers: Headers,
          context: EntryContext,
        ) => new Response(new Uint8Array(await render(context)), { status, headers }),
      },
    },
    routes: Object.fromEntries(routes.map((r) => [r.server.id, r.server])),
    assets: {
      entry: { module: "/assets/entry.client.js", imports: [] },
      routes: Object.fromEntries(routes.map((r) => [r.asset.id, r.asset])),
      url: "/assets/manifest.js",
      version: "1",
    },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: { unstable_subResourceIntegrity: false, v8_middleware: false },
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
}

/** React Router's default: the stream renderer, everything awaited, the whole manifest. */
function streamed(context: EntryContext, nonce: string) {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const { pipe } = renderToPipeableStream(
      <ServerRouter context={context} url="http://localhost/" nonce={nonce} />,
      {
        nonce,
        onAllReady() {
          pipe({
            write: (chunk: Uint8Array) => chunks.push(Buffer.from(chunk)),
            end: () => resolve(Buffer.concat(chunks)),
            on: () => undefined,
          } as unknown as NodeJS.WritableStream);
        },
        onShellError: reject,
      },
    );
  });
}

async function bothWays(path: string) {
  const nonce = "n0nce";
  const url = `http://localhost${path}`;
  const ours = await createRequestHandler(
    buildWith((context) => renderDocument(context, url, nonce)),
  )(new Request(url));
  const reference = await createRequestHandler(buildWith((context) => streamed(context, nonce)))(
    new Request(url),
  );
  return { ours: await ours.text(), reference: await reference.text() };
}

describe("a document drawn whole at once", () => {
  it("is the same bytes as React Router's stream renderer draws, loader data included", async () => {
    const { ours, reference } = await bothWays("/page");
    expect(ours).toBe(reference);
    expect(ours.startsWith("<!DOCTYPE html><html")).toBe(true);
    // The data went out, escaped, as the browser's router reads it.
    expect(ours).toContain("window.__reactRouterContext.streamController.enqueue(");
    expect(ours).toContain("window.__reactRouterContext.streamController.close();");
    expect(ours).toContain("Item 399");
    expect(ours).not.toContain("</script><script>alert(1)");
    // The page's two useIds are drawn.
    expect(ours).toMatch(/<label for="(_R_[^"]+)">Search<\/label><input id="\1"\/>/);
  });

  it("is the same for a page without a loader of its own and for a parameter route", async () => {
    for (const path of ["/plain", "/other/7"]) {
      const { ours, reference } = await bothWays(path);
      expect(ours).toBe(reference);
    }
  });

  it("is the same for a page no route matches (the 404)", async () => {
    const { ours, reference } = await bothWays("/nowhere");
    expect(ours).toBe(reference);
  });

  it("names only the matched routes' modules, and cuts the manifest once per set of matches", async () => {
    const { ours } = await bothWays("/page");
    expect(ours).toContain("/assets/routes/page.js");
    expect(ours).not.toContain("/assets/routes/other.js");
    const seen: EntryContext["manifest"][] = [];
    const build = buildWith(async (context) => {
      seen.push(matchedManifest(context));
      return Buffer.from("");
    });
    const handler = createRequestHandler(build);
    await handler(new Request("http://localhost/page"));
    await handler(new Request("http://localhost/page"));
    await handler(new Request("http://localhost/plain"));
    expect(Object.keys(seen[0]!.routes)).toEqual(["root", "routes/page"]);
    expect(seen[1]).toBe(seen[0]);
    expect(Object.keys(seen[2]!.routes)).toEqual(["root", "routes/plain"]);
  });
});
