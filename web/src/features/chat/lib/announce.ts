/** The answer as plain text for the aria-live announcement: Markdown marks and citation markers dropped. */
const ANNOUNCE_MAX = 600;

export function plainAnnouncement(markdown: string): string {
  const text = markdown
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[\d{1,3}\]/g, "")
    .replace(/[*_`#>~|]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > ANNOUNCE_MAX ? `${text.slice(0, ANNOUNCE_MAX)}…` : text;
}
