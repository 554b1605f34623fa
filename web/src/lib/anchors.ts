/**
 * Heading anchors shared by the knowledge article view (which puts an `id` on each heading) and the chat (whose
 * citations link to the cited heading). One rule, so a citation always lands on the heading it names.
 */

const MAX_ANCHOR_LENGTH = 80;

/** A stable, URL-safe anchor for a heading text: lower case, letters (æøå kept) and digits joined by '-'. */
export function headingAnchor(heading: string): string {
  const slug = heading
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_ANCHOR_LENGTH)
    .replace(/-+$/, "");
  return slug ? `h-${slug}` : "";
}

/**
 * The address of an article in the knowledge screen, opened at a heading when one is given. A citation passes its
 * `headingPath` (top-level heading first); the deepest heading is the one the passage sits under.
 */
export function articleHref(articleId: string, headingPath: readonly string[] = []): string {
  const base = `/knowledge?article=${encodeURIComponent(articleId)}`;
  const deepest = headingPath.at(-1);
  const anchor = deepest ? headingAnchor(deepest) : "";
  return anchor ? `${base}#${anchor}` : base;
}
