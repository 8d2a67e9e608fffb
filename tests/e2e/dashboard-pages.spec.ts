import type { Page } from "@playwright/test";
import { serviceRequests } from "~/db/schema";
import { createCustomer, e2eDb, expect, expectNoAxeViolations, signIn, test } from "./fixtures";

/*
 * A member with 200 requests: the dashboard's lists come a page at a time (ADR 031). Next, Later
 * and Completed Work each have their own pages, reached by plain links that work without
 * JavaScript, and every dashboard document stays at most 150 KB.
 */

const NEXT = 30;
const LATER = 90;
const DONE = 80;
const MAX_DOCUMENT_BYTES = 150 * 1024;

/** 30 open in Next, 90 open in Later, 80 completed (Done 80 the newest), in one insert. */
async function memberWith200Requests() {
  const customer = await createCustomer();
  const base = { homeId: customer.homeId!, customerId: customer.id };
  const day = 86_400_000;
  const start = Date.UTC(2026, 0, 1);
  await e2eDb()
    .insert(serviceRequests)
    .values([
      ...Array.from({ length: NEXT }, (_, i) => ({
        ...base,
        title: `Next ${i + 1}`,
        description: "A job near the top of the list.",
        priority: "next" as const,
        status: "new" as const,
        position: i,
      })),
      ...Array.from({ length: LATER }, (_, i) => ({
        ...base,
        title: `Later ${i + 1}`,
        description: "A job for one of the next visits.",
        priority: "later" as const,
        status: "reviewed" as const,
        position: i,
      })),
      ...Array.from({ length: DONE }, (_, i) => ({
        ...base,
        title: `Done ${i + 1}`,
        description: "Finished on a visit.",
        priority: "later" as const,
        status: "complete" as const,
        position: LATER + i,
        createdAt: new Date(start + i * day),
        updatedAt: new Date(start + i * day),
      })),
    ]);
  return customer;
}

function group(page: Page, name: "Next" | "Later") {
  return page.getByRole("region", { name: new RegExp(`^${name} \\(\\d+\\)$`) });
}

function titles(page: Page, name: "Next" | "Later") {
  return group(page, name).getByRole("article").getByRole("heading");
}

const range = (prefix: string, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `${prefix} ${from + i}`);

test("200 requests: each list a page at a time, every document at most 150 KB", async ({
  page,
}) => {
  const customer = await memberWith200Requests();
  await signIn(page, customer);
  await page.goto("/dashboard");

  await expect(group(page, "Next").getByRole("heading", { level: 3 })).toHaveText(`Next (${NEXT})`);
  await expect(titles(page, "Next")).toHaveText(range("Next", 1, 10));
  await expect(group(page, "Later").getByRole("heading", { level: 3 })).toHaveText(
    `Later (${LATER})`,
  );
  await expect(titles(page, "Later")).toHaveText(range("Later", 1, 10));
  const nextPages = page.getByRole("navigation", { name: "Pages of Next" });
  await expect(nextPages).toContainText("Page 1 of 3");
  await expect(nextPages.getByRole("link", { name: "Previous tasks in Next" })).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Pages of Later" })).toContainText(
    "Page 1 of 9",
  );
  // The first of the whole group cannot move up; the last of a page can move down.
  await expect(page.getByRole("button", { name: "Move Next 1 up" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Move Next 10 down" })).toBeEnabled();
  await expectNoAxeViolations(page);

  // The following page of Next; Later stays where it was.
  await nextPages.getByRole("link", { name: "More tasks in Next" }).click();
  await expect(page).toHaveURL(/[?&]npage=2(&|$)/);
  await expect(titles(page, "Next")).toHaveText(range("Next", 11, 20));
  await expect(titles(page, "Later")).toHaveText(range("Later", 1, 10));
  await expect(nextPages).toContainText("Page 2 of 3");

  // A move across the page boundary: Next 11 goes up past Next 10, onto page 1.
  await page.getByRole("button", { name: "Move Next 11 up" }).click();
  await expect(page.getByText("Request order updated successfully")).toBeVisible();
  await expect(titles(page, "Next")).toHaveText(["Next 10", ...range("Next", 12, 20)]);
  await expect(page).toHaveURL(/[?&]npage=2(&|$)/);

  // Editing a request on page 2 opens it there, and closing goes back to page 2.
  await page.getByRole("button", { name: "Edit Next 12" }).click();
  const dialog = page.getByRole("dialog", { name: "Update Service Request" });
  await expect(dialog.getByLabel("Title")).toHaveValue("Next 12");
  await expect(page).toHaveURL(/[?&]npage=2(&|$)/);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(titles(page, "Next")).toHaveText(["Next 10", ...range("Next", 12, 20)]);

  // The last page of Later holds what is left.
  await page.goto("/dashboard?lpage=9");
  await expect(titles(page, "Later")).toHaveText(range("Later", 81, 90));
  await expect(page.getByRole("button", { name: "Move Later 90 down" })).toBeDisabled();

  // Completed Work, newest first, its own pages.
  await page.goto("/dashboard");
  await page.getByRole("tab", { name: "Completed" }).click();
  const done = page.getByRole("tabpanel");
  await expect(done.getByRole("article").getByRole("heading")).toHaveText(
    range("Done", 71, 80).reverse(),
  );
  await done.getByRole("link", { name: "Older completed work" }).click();
  await expect(page).toHaveURL(/[?&]cpage=2(&|$)/);
  await expect(done.getByRole("article").getByRole("heading")).toHaveText(
    range("Done", 61, 70).reverse(),
  );
  await expect(done.getByRole("navigation", { name: "Pages of Completed Work" })).toContainText(
    "Page 2 of 8",
  );

  // Every page of every list is a document of at most 150 KB.
  const documents = [
    ...[1, 2, 3].map((n) => `/dashboard?npage=${n}`),
    ...[1, 5, 9].map((n) => `/dashboard?lpage=${n}`),
    ...[1, 4, 8].map((n) => `/dashboard?tab=completed&cpage=${n}`),
  ];
  for (const url of documents) {
    const response = await page.request.get(url, { headers: { accept: "text/html" } });
    expect(response.status(), url).toBe(200);
    const bytes = (await response.body()).byteLength;
    expect(bytes, `${url}: ${bytes} bytes`).toBeLessThanOrEqual(MAX_DOCUMENT_BYTES);
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the pages are plain links, and a move keeps the page it was made on", async ({ page }) => {
    const customer = await memberWith200Requests();
    await signIn(page, customer);
    await page.goto("/dashboard");
    await page.getByRole("link", { name: "More tasks in Later" }).click();
    await expect(page).toHaveURL(/[?&]lpage=2(&|$)/);
    await expect(titles(page, "Later")).toHaveText(range("Later", 11, 20));
    await page.getByRole("link", { name: "More tasks in Later" }).click();
    await expect(titles(page, "Later")).toHaveText(range("Later", 21, 30));
    await page.getByRole("link", { name: "Previous tasks in Later" }).click();
    await expect(titles(page, "Later")).toHaveText(range("Later", 11, 20));

    // The form posts, the server answers with the same page and the notice.
    await page.getByRole("button", { name: "Move Later 15 down" }).click();
    await expect(page).toHaveURL(/[?&]lpage=2(&|$)/);
    await expect(page.getByRole("status")).toContainText("Request order updated successfully");
    await expect(titles(page, "Later")).toHaveText([
      ...range("Later", 11, 14),
      "Later 16",
      "Later 15",
      ...range("Later", 17, 20),
    ]);

    // Completed Work's pages, on its tab.
    await page.goto("/dashboard?tab=completed");
    const done = page.getByRole("tabpanel");
    await done.getByRole("link", { name: "Older completed work" }).click();
    await expect(page).toHaveURL(/tab=completed/);
    await expect(done.getByRole("article").getByRole("heading")).toHaveText(
      range("Done", 61, 70).reverse(),
    );
  });
});
