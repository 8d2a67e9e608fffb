/**
 * Shows a picture whose markup the page's loader made (pictureHtml in public-images.server.ts,
 * ADR 028): our own markup from the build's manifest and the content's alt text, escaped there.
 */
export function SlotPicture({ html, className }: { html: string; className?: string }) {
  if (!html) return null;
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
