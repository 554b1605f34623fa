import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import matter from "gray-matter";
import { plainText, stripHtml } from "../markdown/sanitize";

/** One sample article read from the content folder (Markdown with YAML front matter). */
export interface ContentArticle {
  title: string;
  /** The Markdown body without the front matter. */
  content: string;
  category: string;
  subcategory?: string;
  tags: string[];
  /** Path relative to the content folder, with '/' separators: the idempotency key for imports. */
  sourcePath: string;
  /** sha256 of title, category, subcategory, tags and content: changes exactly when the article does. */
  contentHash: string;
}

/** A content file that cannot be imported; the message names the file and the field. */
export class ContentError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = "ContentError";
  }
}

async function listMarkdown(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.toLowerCase().endsWith(".md"))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

function requireText(
  data: Record<string, unknown>,
  field: string,
  file: string,
  optional = false,
): string | undefined {
  const value = data[field];
  if (value === undefined || value === null) {
    if (optional) return undefined;
    throw new ContentError(file, field, `mangler feltet '${field}' i front matter`);
  }
  // front matter fields are plain text: HTML in them is dropped (or escaped) before they are checked and stored
  const text = typeof value === "string" ? plainText(value).trim() : "";
  if (!text) throw new ContentError(file, field, `feltet '${field}' skal være en ikke-tom tekst`);
  return text;
}

/** Parses one Markdown file's text; `sourcePath` is used in errors and as the idempotency key. */
export function parseContentFile(text: string, sourcePath: string): ContentArticle {
  let parsed: matter.GrayMatterFile<string>;
  try {
    // An empty options object disables gray-matter's cache, which would keep every file in memory.
    parsed = matter(text, {});
  } catch (err) {
    throw new ContentError(
      sourcePath,
      "front matter",
      `ugyldig front matter: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`,
    );
  }
  if (!parsed.matter?.trim()) {
    throw new ContentError(sourcePath, "front matter", "mangler front matter (--- title/category/tags ---)");
  }
  const data = parsed.data as Record<string, unknown>;
  const title = requireText(data, "title", sourcePath) as string;
  const category = requireText(data, "category", sourcePath) as string;
  const subcategory = requireText(data, "subcategory", sourcePath, true);
  const rawTags = data.tags ?? [];
  if (!Array.isArray(rawTags) || rawTags.some((t) => typeof t !== "string" || !t.trim())) {
    throw new ContentError(sourcePath, "tags", "feltet 'tags' skal være en liste af ikke-tomme tekster");
  }
  const tags = [...new Set(rawTags.map((t: string) => plainText(t).trim()).filter(Boolean))];
  // the body is stored as Markdown without HTML, like every text shown to others
  const content = stripHtml(parsed.content)
    .replace(/^\s*\n/, "")
    .trimEnd();
  if (!content.trim())
    throw new ContentError(sourcePath, "content", "artiklen har ingen tekst (content) efter front matter");
  const contentHash = createHash("sha256")
    .update(JSON.stringify([title, category, subcategory ?? null, tags, content]))
    .digest("hex");
  return {
    title,
    content: `${content}\n`,
    category,
    ...(subcategory ? { subcategory } : {}),
    tags,
    sourcePath,
    contentHash,
  };
}

/**
 * Reads every `*.md` file under `dir` (recursively, sorted by path) as a knowledge article.
 * Throws ContentError naming the file and field for a missing or malformed front matter field.
 */
export async function loadContentDir(dir: string): Promise<ContentArticle[]> {
  const files = await listMarkdown(dir);
  const articles: ContentArticle[] = [];
  for (const file of files) {
    const sourcePath = path.relative(dir, file).split(path.sep).join("/");
    articles.push(parseContentFile(await readFile(file, "utf8"), sourcePath));
  }
  return articles;
}
