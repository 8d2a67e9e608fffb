import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { periodFrom } from "~/features/reports";
import { keptWhileUnchanged } from "~/features/reports/report-cache.server";
import { reportsPageFigures } from "~/features/reports/reports.server";
import { reportSectionsMarkup } from "~/features/reports/report-markup.server";
import { ReportSections } from "~/features/reports/components/report-sections";
import { periodQuery, reportTables } from "~/features/reports";
import { renderToStaticMarkup } from "react-dom/server";
import { createElement } from "react";
import { businessToday } from "~/lib/business-calendar";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "../support/test-database";

/*
 * The reports page's figures are kept while the database is unchanged (ADR 092): computed once
 * for requests that find nothing written since, computed again after any write, and never
 * kept when they failed.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

const addLead = (email: string) =>
  database.db.execute(
    sql`insert into lead_entries (name, email, form_type, source) values ('A lead', ${email}, 'contact', 'home')`,
  );

/**
 * Waits until the WAL position has stood still for a moment: on PostgreSQL it is the cluster's,
 * moved also by autovacuum after the migrations and by other databases of the test server.
 */
async function quiet() {
  const position = async () =>
    (
      (await database.db.execute(
        sql`select pg_current_wal_insert_lsn()::text as p`,
      )) as unknown as {
        rows: { p: string }[];
      }
    ).rows[0].p;
  for (let tries = 0; tries < 100; tries++) {
    const before = await position();
    await new Promise((resolve) => setTimeout(resolve, 300));
    if ((await position()) === before) return;
  }
}

describe("the reports' figures kept while the database is unchanged", () => {
  // On PostgreSQL the WAL position is the cluster's: the other test files writing to their own
  // databases beside this one move it at any moment, so only the embedded database, alone in
  // its process, shows the sharing for certain. Never stale holds on both (the tests below).
  it.runIf(testDatabaseKind() === "pglite")(
    "are computed once while nothing is written, and again after a write",
    async () => {
      let computed = 0;
      const compute = async () => ++computed;
      const kept = (key = "k") => keptWhileUnchanged(database.db, key, compute);
      await quiet();
      // Requests that arrive together share one computation.
      expect(await Promise.all([kept(), kept(), kept()])).toEqual([1, 1, 1]);
      expect(await kept()).toBe(1);
      expect(await kept("another period")).toBe(2);
      await addLead("one@example.com");
      expect(await kept()).toBe(3);
      await quiet();
      const now = await kept();
      expect(now).toBeGreaterThanOrEqual(3);
      expect(await kept()).toBe(now);
    },
  );

  it("are not kept when they failed", async () => {
    let calls = 0;
    const failing = () =>
      keptWhileUnchanged(database.db, "failing", async () => {
        calls += 1;
        if (calls === 1) throw new Error("the database went away");
        return calls;
      });
    await expect(failing()).rejects.toThrow("the database went away");
    expect(await failing()).toBe(2);
  });

  it("show a lead sent after the page was read", async () => {
    const today = businessToday();
    const period = periodFrom(new URLSearchParams(), today);
    const leadsOf = async () => {
      const { report } = await reportsPageFigures(period, { database: database.db });
      return report.sales.months.reduce((total, m) => total + m.leads, 0);
    };
    await quiet();
    const before = await leadsOf();
    expect(await leadsOf()).toBe(before);
    await addLead("two@example.com");
    expect(await leadsOf()).toBe(before + 1);
  });

  it("keep the sections' markup with the figures: the same as rendered afresh, new after a write", async () => {
    const period = periodFrom(new URLSearchParams(), businessToday());
    const query = periodQuery(period);
    const page = async () => {
      const figures = await reportsPageFigures(period, { database: database.db });
      return { figures, markup: reportSectionsMarkup(figures, query) };
    };
    await quiet();
    const first = await page();
    const afresh = renderToStaticMarkup(
      createElement(ReportSections, {
        report: first.figures.report,
        tables: reportTables(first.figures.report),
        query,
        care: first.figures.care,
      }),
      { identifierPrefix: "report-" },
    );
    expect(first.markup).toBe(afresh);
    expect(first.markup).toContain("Download CSV");
    await addLead("three@example.com");
    const second = await page();
    expect(second.figures).not.toBe(first.figures);
    expect(second.markup).not.toBe(first.markup);
  });
});
