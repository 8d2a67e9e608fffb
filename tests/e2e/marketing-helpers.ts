import type { Page } from "@playwright/test";

/**
 * Waits until the public page's enhancement scripts have run (ADR 030): the pages work as
 * plain HTML first, and a test that wants the enhanced behaviour (forms posted in place,
 * toasts, aria-expanded on the disclosures) waits for the site script's mark. The page's own
 * scripts run before it (module scripts run in document order).
 */
export async function waitForEnhancements(page: Page) {
  await page.locator("html[data-enhanced]").waitFor({ state: "attached" });
}

export const PHONE = "(404) 555-0142";
export const PHONE_HREF = "tel:+14045550142";
