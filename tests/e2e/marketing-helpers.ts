import type { Page } from "@playwright/test";

/**
 * Waits until React has hydrated the page: the public pages paint first and load their
 * JavaScript after (docs/decisions/008), so a test that wants the enhanced behaviour (fetcher
 * posts, toasts) waits for React to own the DOM.
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => {
    const main = document.querySelector("main");
    return Boolean(main && Object.keys(main).some((key) => key.startsWith("__reactFiber$")));
  });
}

export const PHONE = "(404) 555-0142";
export const PHONE_HREF = "tel:+14045550142";
