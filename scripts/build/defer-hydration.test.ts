import { describe, expect, it } from "vitest";
import { deferHydration, DeferHydrationError } from "./defer-hydration";

const PAGE = `<!DOCTYPE html><html lang="en"><head><title>Home</title><link rel="modulepreload" href="/assets/entry.client-A.js"/><link rel="modulepreload" href="/assets/chunk-B.js"/><link rel="modulepreload" href="/assets/root-C.js"/><link rel="stylesheet" href="/assets/root.css"/></head><body><h1>Hello</h1><script>window.__reactRouterContext = {};</script><script type="module" async="">import * as route0 from "/assets/root-C.js";
import * as route1 from "/assets/home-D.js";
  window.__reactRouterManifest = {"entry":{}};
  window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};

import("/assets/entry.client-A.js");</script></body></html>`;

describe("deferHydration", () => {
  it("removes the preload links and loads the same modules after the first paint", () => {
    const out = deferHydration(PAGE);
    expect(out).not.toContain('rel="modulepreload"');
    expect(out).toContain('<link rel="stylesheet" href="/assets/root.css"/>');
    expect(out).toContain("<h1>Hello</h1><script>window.__reactRouterContext = {};</script>");
    const script = /<script type="module" async="">([\s\S]*?)<\/script>/.exec(out)![1];
    expect(script).not.toMatch(/^import \*/m);
    expect(script).toContain(
      'const [route0, route1] = await Promise.all([import("/assets/root-C.js"), import("/assets/home-D.js")]);',
    );
    expect(script).toContain(
      '["/assets/entry.client-A.js","/assets/chunk-B.js","/assets/root-C.js"]',
    );
    expect(script.indexOf("requestAnimationFrame")).toBeLessThan(script.indexOf("Promise.all"));
    expect(script.trim().endsWith('import("/assets/entry.client-A.js");')).toBe(true);
    expect(script).toContain('window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};');
  });

  it("turns a bare import (the route manifest) into an awaited dynamic import", () => {
    const out = deferHydration(
      PAGE.replace('import * as route0', 'import "/assets/manifest-E.js";\nimport * as route0'),
    );
    expect(out).toContain('await import("/assets/manifest-E.js");');
  });

  it("refuses a page whose bootstrap it does not recognise", () => {
    expect(() => deferHydration("<html><body><p>static</p></body></html>")).toThrow(
      DeferHydrationError,
    );
    expect(() =>
      deferHydration(PAGE.replace('import("/assets/entry.client-A.js");', "start();")),
    ).toThrow(DeferHydrationError);
  });

  it("keeps a valid module script: the output parses as JavaScript", async () => {
    const out = deferHydration(PAGE);
    const script = /<script type="module" async="">([\s\S]*?)<\/script>/.exec(out)![1];
    // An async function body accepts top-level-await code like a module does.
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
    expect(() => new AsyncFunction(script.replace(/import\(/g, "load("))).not.toThrow();
  });
});
