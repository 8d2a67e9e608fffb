import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/*
 * The public pages' pictures (ADR 028): each section's slot is served as AVIF or WebP at
 * several widths, with its width and height, and only the hero loads before it is needed.
 */

type Shown = {
  alt: string;
  src: string;
  width: string | null;
  height: string | null;
  loading: string;
  natural: number;
  sources: string[];
};

async function pictures(page: Page): Promise<Shown[]> {
  return page.locator("main picture img").evaluateAll((images) =>
    (images as HTMLImageElement[]).map((img) => ({
      alt: img.alt,
      src: img.currentSrc,
      width: img.getAttribute("width"),
      height: img.getAttribute("height"),
      loading: img.loading,
      natural: img.naturalWidth,
      sources: [...img.parentElement!.querySelectorAll("source")].map(
        (source) => `${source.type} ${source.srcset}`,
      ),
    })),
  );
}

/** Scrolls each picture into view so the lazy ones load, then reads them. */
async function loadAll(page: Page) {
  for (const image of await page.locator("main picture img").all()) {
    await image.scrollIntoViewIfNeeded();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
  }
  return pictures(page);
}

function expectServedWell(shown: Shown[], heroAlt: string | null) {
  for (const image of shown) {
    expect(image.alt.length, "every picture says what it shows").toBeGreaterThan(10);
    expect(image.src).toMatch(/\/images\/[\w-]+-\d+\.(avif|webp)$/);
    expect(Number(image.width)).toBeGreaterThan(0);
    expect(Number(image.height)).toBeGreaterThan(0);
    expect(image.natural).toBeGreaterThan(0);
    expect(image.sources[0]).toMatch(/^image\/avif \/images\/\S+-480\.avif 480w, /);
    expect(image.sources[1]).toMatch(/^image\/webp \/images\/\S+-480\.webp 480w, /);
    expect(image.loading).toBe(image.alt === heroAlt ? "eager" : "lazy");
  }
}

for (const [path, count, heroAlt] of [
  ["/", 5, "A handyman with his toolbox outside a family home"],
  ["/dunwoody-handyman", 2, "A handyman with his toolbox outside a family home"],
  ["/book-call", 1, null],
] as const) {
  test(`${path} shows its pictures as AVIF or WebP with their size @phone`, async ({
    page,
    request,
  }) => {
    await page.goto(path);
    await expect(page.locator("main picture img")).toHaveCount(count);
    if (heroAlt) await expect(page.getByRole("img", { name: heroAlt })).toBeVisible();
    const before = await pictures(page);
    // Below the fold, nothing but the hero has loaded yet.
    const offscreen = before.filter((image) => image.alt !== heroAlt);
    expect(offscreen.every((image) => image.loading === "lazy")).toBe(true);
    const shown = await loadAll(page);
    expectServedWell(shown, heroAlt);
    // Browsers that take AVIF get AVIF; the files are cached for good (content-hashed names).
    expect(shown[0].src).toMatch(/\.avif$/);
    const file = await request.get(new URL(shown[0].src).pathname);
    expect(file.status()).toBe(200);
    expect(file.headers()["content-type"]).toBe("image/avif");
    expect(file.headers()["cache-control"]).toContain("immutable");
  });
}

test("a picture keeps its shape before it loads: no layout shift", async ({ page }) => {
  await page.goto("/");
  const box = await page.getByRole("img", { name: /service van/ }).boundingBox();
  expect(box!.width).toBeGreaterThan(0);
  expect(Math.round((box!.height / box!.width) * 100)).toBe(63);
});
