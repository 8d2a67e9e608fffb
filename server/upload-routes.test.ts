import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UPLOAD_ROUTES } from "./request-handler";

const root = path.resolve(import.meta.dirname, "..");

/** Every route of app/routes.ts as its URL (parameters filled in) and its module's file. */
function routeTable() {
  const source = fs.readFileSync(path.join(root, "app/routes.ts"), "utf8");
  return [...source.matchAll(/route\("([^"]+)",\s*"(routes\/[^"]+)"/g)].map(([, url, file]) => ({
    url: `/${url.replace(/:[A-Za-z]+\??/g, "id-1")}`,
    file: file!,
  }));
}

describe("every route that takes files has an upload limit refused from the Content-Length (ADR 043)", () => {
  // A route that reads a multipart body (photos, receipts) must be one of the server's upload
  // routes: otherwise its files are refused at the 64 KB form limit, or, were that limit ever
  // lifted for it, a body of any declared size would be read.
  // The route's module and the `.server.ts` beside it that holds its action (ADR 093).
  const takesFiles = routeTable().filter(({ file }) =>
    [file, file.replace(/\.tsx?$/, ".server.ts")].some(
      (module) =>
        fs.existsSync(path.join(root, "app", module)) &&
        /multipart/i.test(fs.readFileSync(path.join(root, "app", module), "utf8")),
    ),
  );

  it("finds the routes that take files", () => {
    expect(takesFiles.map((r) => r.url)).toEqual(
      expect.arrayContaining([
        "/dashboard/requests",
        "/dashboard/requests/id-1",
        "/dashboard/requests/id-1/photos",
        "/employee/today",
        "/employee/profile-photo",
      ]),
    );
  });

  it("each has its limit and its 413, for the page and its data request", () => {
    for (const route of takesFiles) {
      const upload = UPLOAD_ROUTES.find((r) => r.pattern.test(route.url));
      expect(upload, `${route.url} takes files`).toBeDefined();
      expect(upload!.tooLarge.status).toBe(413);
      expect(upload!.pattern.test(`${route.url}.data`)).toBe(true);
    }
  });

  it("and no upload limit is left without its route", () => {
    for (const upload of UPLOAD_ROUTES)
      expect(
        takesFiles.some((r) => upload.pattern.test(r.url)),
        String(upload.pattern),
      ).toBe(true);
  });
});
