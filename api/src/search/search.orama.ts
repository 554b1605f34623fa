/**
 * How articles and passages are laid out in orama: the two schemas and their field boosts, the Danish
 * tokenizer, and the documents written for an article and each of its passages. orama runs synchronously
 * here (our tokenizer and index component are synchronous), which the index relies on for atomic updates.
 */
import { type AnyOrama, create, insert, remove, type Tokenizer } from "@orama/orama";
import { analyse } from "./search.analyzer";
import { putBackDoc } from "./search.persist-orama";
import { TERM_END } from "./search.query";
import { createIndexComponent } from "./search.scorer";
import type { Passage } from "./search.types";

/** The fields of an article its orama documents are made of. */
export interface OramaArticle {
  id: string;
  title: string;
  content: string;
  category: string;
  subcategory?: string;
  tags: string[];
}

const ARTICLE_SCHEMA = {
  title: "string",
  headings: "string",
  tags: "string[]",
  category: "string",
  subcategory: "string",
  content: "string",
} as const;

const PASSAGE_SCHEMA = {
  title: "string",
  tags: "string[]",
  heading: "string",
  text: "string",
} as const;

export const ARTICLE_BOOST = { title: 3, headings: 2, tags: 2, subcategory: 1.5, category: 1, content: 1 };
// Title and tags give every passage its article's context.
export const PASSAGE_BOOST = { heading: 2, title: 1.5, tags: 1, text: 1 };

/**
 * Our tokenizer for orama: documents are analysed with the Danish analyser; a search term arrives
 * already analysed by analyseQuery() (space-separated index terms), so it is only split. This keeps
 * query analysis (typo correction, truncation) in one place and avoids stemming a stem twice.
 */
function createDanishTokenizer(): Tokenizer {
  return {
    language: "danish",
    normalizationCache: new Map(),
    tokenize(raw: string, _language?: string, prop?: string): string[] {
      if (typeof raw !== "string") return [];
      if (prop === undefined) return raw.split(" ").filter(Boolean);
      return analyse(raw).map((t) => `${t}${TERM_END}`);
    },
  };
}

export function newArticleDb(): AnyOrama {
  return create({
    schema: ARTICLE_SCHEMA,
    components: { tokenizer: createDanishTokenizer(), index: createIndexComponent() },
  }) as AnyOrama;
}

export function newPassageDb(): AnyOrama {
  return create({
    schema: PASSAGE_SCHEMA,
    components: { tokenizer: createDanishTokenizer(), index: createIndexComponent() },
  }) as AnyOrama;
}

/** orama runs synchronously with our synchronous components; a promise here would break atomic updates. */
function sync<T>(value: T | Promise<T>): T {
  if (value instanceof Promise)
    throw new Error("orama returned a promise; the index expects synchronous components");
  return value;
}

export function headingsOf(markdown: string): string {
  const out: string[] = [];
  for (const line of markdown.split("\n")) {
    const m = /^#{1,6}\s+(.+)$/.exec(line.trim());
    if (m) out.push(m[1]);
  }
  return out.join("\n");
}

/** An article's orama document (searched by search()). */
export function articleDoc(a: OramaArticle) {
  return {
    id: a.id,
    title: a.title,
    // Section headings say what an article is about better than a word somewhere in its body.
    headings: headingsOf(a.content),
    tags: a.tags,
    category: a.category,
    subcategory: a.subcategory ?? "",
    content: a.content,
  };
}

/** One passage's orama document (searched by retrieve()); title and tags come from its article. */
export function passageDoc(a: OramaArticle, p: Passage) {
  return { id: p.id, title: a.title, tags: a.tags, heading: p.headingPath.join("\n"), text: p.text };
}

/** Adds an article's document. */
export function insertArticleDoc(db: AnyOrama, a: OramaArticle): void {
  sync(insert(db, articleDoc(a)));
}

/** Adds one passage's document. */
export function insertPassageDoc(db: AnyOrama, a: OramaArticle, p: Passage): void {
  sync(insert(db, passageDoc(a, p)));
}

/** Removes a document; `doc` gives it when orama does not hold it (a restored index, search.persist-orama.ts). */
export function removeDoc(db: AnyOrama, id: string, doc?: () => object): void {
  if (doc) putBackDoc(db, id, doc);
  sync(remove(db, id));
}

/** orama's internal document id → our id (the scorer works on internal ids). */
export function externalIds(db: AnyOrama): (internalId: number) => string {
  const ids = (db.internalDocumentIDStore as unknown as { internalIdToId: string[] }).internalIdToId;
  return (internalId) => ids[internalId - 1];
}
