/**
 * A Notion page (properties + rendered blocks) → the fields of an article, within the knowledge base's limits
 * (knowledge.input.ts): the title property → title ('Uden titel' when the database has none or it is empty); a
 * select named like Kategori / Category → category, else the database's title; another select → subcategory;
 * multi-selects → tags; the blocks → content ('(Siden er tom i Notion)' for an empty page). Long texts are cut
 * at the limits with a visible '…' rather than refused.
 */
import { asRichText, type Page, plain } from "./notion.guards";

export const TITLE_MAX = 200;
export const CONTENT_MAX = 200_000;
export const CATEGORY_MAX = 100;
export const TAGS_MAX = 30;
export const TAG_MAX = 50;
export const UNTITLED = "Uden titel";
export const EMPTY_PAGE = "(Siden er tom i Notion)";
const CATEGORY_NAMES = /^(kategori|category|categories|kategorier)$/i;

export interface MappedArticle {
  title: string;
  category: string;
  subcategory: string | null;
  tags: string[];
  content: string;
}

function cut(s: string, max: number): string {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
}

function selectName(value: unknown): string | null {
  const name = (value as { name?: unknown } | null)?.name;
  return typeof name === "string" && name.trim() ? name.trim() : null;
}

export function mapPage(page: Page, databaseTitle: string, lines: string[]): MappedArticle {
  const props = Object.entries(page.properties);
  const titleProp = props.find(([, p]) => p.type === "title");
  const title = cut(titleProp ? plain(asRichText(titleProp[1].value)) : "", TITLE_MAX) || UNTITLED;

  const selects = props.filter(([, p]) => p.type === "select");
  const catProp = selects.find(([name]) => CATEGORY_NAMES.test(name.trim()));
  const category = cut((catProp && selectName(catProp[1].value)) ?? databaseTitle, CATEGORY_MAX) || "Notion";
  const other = selects.find(([name, p]) => name !== catProp?.[0] && selectName(p.value));
  const subcategory = other ? cut(selectName(other[1].value) ?? "", CATEGORY_MAX) || null : null;

  const tags: string[] = [];
  for (const [, p] of props) {
    if (p.type !== "multi_select" || !Array.isArray(p.value)) continue;
    for (const option of p.value) {
      const name = selectName(option);
      if (name && tags.length < TAGS_MAX) tags.push(cut(name, TAG_MAX));
    }
  }

  let content = lines.join("\n").trim();
  if (!content) content = EMPTY_PAGE;
  if (content.length > CONTENT_MAX) content = `${content.slice(0, CONTENT_MAX - 1)}…`;
  return { title, category, subcategory, tags: [...new Set(tags)], content };
}
