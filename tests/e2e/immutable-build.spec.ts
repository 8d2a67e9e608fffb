import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { isBuilt } from "../../scripts/fingerprint.mjs";
import { inlineScriptHashes } from "../../server/security";
import {
  START_SCRIPT,
  startServer,
  TEST_AUTH_SECRET,
  type ServerProcess,
} from "../support/processes";
import { expect, test } from "./fixtures";

/*
 * One build, any number of environments (ADR 029): the settings that reach the public pages are
 * applied when a server starts, never baked into build/. Two servers started by `npm start`'s
 * own script from this one tree, each with its own PUBLIC_URL and business, each show their own
 * on every family of public page, and build/ is byte for byte what it was.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const BUILD = path.join(ROOT, "build");

const SITES = [
  {
    PUBLIC_URL: "https://alpha-fixit.example",
    BUSINESS_NAME: "Alpha Fix-It Club",
    BUSINESS_PHONE: "(470) 555-0101",
  },
  {
    PUBLIC_URL: "https://www.bravo-repairs.example",
    BUSINESS_NAME: "Bravo Home Repair Guild",
    BUSINESS_EMAIL: "hello@bravo-repairs.example",
  },
] as const;

/** The home page, a city page and the booking page. */
const PAGES = ["/", "/decatur-handyman", "/book-call"];

/** Every file under `dir` with the sha256 of its bytes. */
function hashTree(dir: string, out = new Map<string, string>()) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) hashTree(full, out);
    else
      out.set(
        path.relative(BUILD, full),
        crypto.createHash("sha256").update(fs.readFileSync(full)).digest("hex"),
      );
  }
  return out;
}

function changedFiles(before: Map<string, string>, after: Map<string, string>) {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name)).sort();
}

test("two servers from one build carry their own settings on every public page; build/ stays as it was", async ({
  page,
}) => {
  test.setTimeout(180_000);
  expect(isBuilt(ROOT), 'build/ is not a build of these sources: run "npm run build"').toBe(true);
  const before = hashTree(BUILD);
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`${page.url()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`${page.url()}: ${error.message}`));

  const servers: ServerProcess[] = [];
  try {
    // Started together, as two deploys of one artifact would be.
    const started = await Promise.allSettled(
      SITES.map((site) =>
        startServer({ ...site, AUTH_SECRET: TEST_AUTH_SECRET }, { entry: START_SCRIPT }),
      ),
    );
    for (const result of started) if (result.status === "fulfilled") servers.push(result.value);
    for (const result of started) if (result.status === "rejected") throw result.reason;

    for (const [i, server] of servers.entries()) {
      const site = SITES[i];
      const other = SITES[1 - i];
      expect(server.output(), "npm start built instead of running the build").not.toMatch(
        /Building the application/,
      );
      for (const pagePath of PAGES) {
        const where = `${site.BUSINESS_NAME} ${pagePath}`;
        const canonical = `${site.PUBLIC_URL}${pagePath}`;

        // The HTML as served: this server's settings only, and a CSP allowing exactly its
        // inline scripts.
        const response = await fetch(`${server.origin}${pagePath}`);
        expect(response.status, where).toBe(200);
        const html = await response.text();
        expect(html, where).toContain(site.BUSINESS_NAME);
        for (const foreign of [other.BUSINESS_NAME, other.PUBLIC_URL, "Peachtree Handyman Club"])
          expect(html, where).not.toContain(foreign);
        const scriptSrc = /script-src ([^;]*)/.exec(
          response.headers.get("content-security-policy") ?? "",
        )?.[1];
        const allowed = (scriptSrc ?? "").match(/sha256-[^']+/g) ?? [];
        expect(inlineScriptHashes(html).length, where).toBeGreaterThan(0);
        expect(allowed.sort(), where).toEqual(inlineScriptHashes(html).sort());

        // The page in a browser: canonical link, JSON-LD and the name a visitor reads.
        await page.goto(`${server.origin}${pagePath}`);
        await expect(page.locator('link[rel="canonical"]'), where).toHaveAttribute(
          "href",
          canonical,
        );
        await expect(page.locator('meta[property="og:url"]'), where).toHaveAttribute(
          "content",
          canonical,
        );
        const blocks = (
          await page.locator('script[type="application/ld+json"]').allTextContents()
        ).map((text) => JSON.parse(text) as Record<string, unknown>);
        const business = blocks.find((block) => block["@type"] === "LocalBusiness");
        expect(business, where).toMatchObject({
          name: site.BUSINESS_NAME,
          url: `${site.PUBLIC_URL}/`,
          "@id": `${site.PUBLIC_URL}/#business`,
        });
        if ("BUSINESS_PHONE" in site) {
          expect(business!.telephone, where).toBe("+14705550101");
          await expect(page.getByText(site.BUSINESS_PHONE).first(), where).toBeVisible();
        }
        if ("BUSINESS_EMAIL" in site) expect(business!.email, where).toBe(site.BUSINESS_EMAIL);
        await expect(page.getByText(site.BUSINESS_NAME).first(), where).toBeVisible();
      }
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
  // No CSP refusal (an inline script whose hash the policy lacks) or other error in any page.
  expect(problems).toEqual([]);
  expect(changedFiles(before, hashTree(BUILD))).toEqual([]);
});
