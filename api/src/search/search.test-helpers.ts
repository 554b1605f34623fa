import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AnyOrama } from "@orama/orama";
import { type ContentArticle, loadContentDir } from "../knowledge/content";
import { analyse } from "./search.analyzer";
import { type Coverage, coverageOf, gateFields } from "./search.coverage";
import { relevanceOf } from "./search.passage-relevance";
import type { QueryConcept } from "./search.query";
import type { IndexableArticle, RetrievedPassage } from "./search.types";
import { Vocabulary } from "./search.vocabulary";

export const CONTENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../content");

let counter = 0;

/** A valid article; override what the test is about. */
export function buildArticle(overrides: Partial<IndexableArticle> = {}): IndexableArticle {
  counter++;
  return {
    id: `art-${counter}`,
    title: `Artikel ${counter}`,
    content: "# Overskrift\n\nEn kort tekst om kontoret.\n",
    category: "Procedurer",
    tags: [],
    ...overrides,
  };
}

/** The sample content as indexable articles, keyed by source path. */
export async function sampleArticles(): Promise<IndexableArticle[]> {
  const articles: ContentArticle[] = await loadContentDir(CONTENT_DIR);
  return articles.map((a) => ({
    id: a.sourcePath,
    title: a.title,
    content: a.content,
    category: a.category,
    subcategory: a.subcategory,
    tags: a.tags,
  }));
}

const DIMENSIONS = 64;

function bucket(term: string): number {
  let h = 2166136261;
  for (let i = 0; i < term.length; i++) {
    h ^= term.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return (h >>> 0) % DIMENSIONS;
}

/**
 * A small deterministic embedder for tests: hashed bag of stems, where each group of `synonyms`
 * shares one dimension, so texts with related words point the same way without sharing a word.
 */
export function hashedEmbedder(synonyms: string[][] = []) {
  const concept = new Map<string, string>();
  for (const group of synonyms) {
    const [head] = analyse(group[0]);
    for (const w of group) for (const t of analyse(w)) concept.set(t, head);
  }
  const calls: string[][] = [];
  const embed = async (texts: string[]): Promise<number[][]> => {
    calls.push([...texts]);
    return texts.map((text) => {
      const v = new Array<number>(DIMENSIONS).fill(0);
      for (const t of analyse(text)) v[bucket(concept.get(t) ?? t)] += 1;
      return v;
    });
  };
  return { embed, calls };
}

type RadixNode = { d: Set<number>; c: Map<string, RadixNode> };

/** Every radix node's documents (its posting set), over all fields of an orama database. */
export function postingSets(db: AnyOrama): Set<number>[] {
  const out: Set<number>[] = [];
  for (const { node } of Object.values(
    (db.data.index as unknown as { indexes: Record<string, { node: RadixNode }> }).indexes,
  )) {
    const stack = [node];
    while (stack.length > 0) {
      const n = stack.pop() as RadixNode;
      out.push(n.d);
      for (const c of n.c.values()) stack.push(c);
    }
  }
  return out;
}

/** The ids a Set holds in its own hash table (Set.prototype's size, not a PostingSet's override). */
export const tableSize = Object.getOwnPropertyDescriptor(Set.prototype, "size")?.get as (
  this: Set<number>,
) => number;

/** A vocabulary counted over short synthetic articles, one text each: the gate tests' corpus. */
export function vocabularyOf(texts: readonly string[]): Vocabulary {
  const vocabulary = new Vocabulary();
  for (const content of texts) vocabulary.count({ title: "", category: "", tags: [], content }, 1);
  return vocabulary;
}

/** How the concepts cover `text`, read as one passage without headings. */
export function coverOf(concepts: QueryConcept[], text: string): Coverage {
  return coverageOf(concepts, { all: new Set(analyse(text)), headings: new Set() });
}

/** The gate's relevance of a passage with these coverage fields (no vector, no rank or score evidence). */
export function gateRelevanceOf(fields: Partial<RetrievedPassage>): number {
  return relevanceOf(fields as RetrievedPassage, [], 0, false, 0);
}

/** The gate's relevance of `text` for the concepts as given (pass them through gateConcepts for the gate's view). */
export function gateRelevance(concepts: QueryConcept[], text: string): number {
  return gateRelevanceOf(gateFields(coverOf(concepts, text)));
}
