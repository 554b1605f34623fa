/**
 * The answer-quality evaluation sets (questions.json, the default; questions-<name>.json, e.g. the held-out
 * questions-fresh.json, the measure-only questions-staff3.json and the calibration-only questions-calib4.json) and
 * the sample articles they are written against.
 *
 * Articles are named by their slug: the file name under content/ without ".md" (unique across folders), so the
 * set does not depend on database ids. The content is read straight from the Markdown files, not through the
 * knowledge module, so the set can be checked without the code it measures.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const CONTENT_DIR = path.resolve(HERE, "../../content");
/** where the sets live: questions.json and questions-<name>.json */
export const SETS_DIR = HERE;

/** How a question differs from the article's wording (one tag per question, its main difficulty). */
export const KINDS = [
  "paraphrase",
  "synonym",
  "inflection",
  "compound",
  "no-aeoeaa",
  "typo",
  "one-word",
  "long",
] as const;
export type Kind = (typeof KINDS)[number];

export interface OnTopicQuestion {
  id: string;
  kind: Kind;
  question: string;
  /** slugs of the articles that answer it; the first is the main one */
  articles: string[];
  /** sentences that answer it, each an exact substring of one of `articles` (the first is the main one) */
  answers: string[];
}

export type OffTopicGroup = "office" | "general";

export interface OffTopicQuestion {
  id: string;
  /** office: a plausible workplace question the content does not cover; general: anything else */
  group: OffTopicGroup;
  question: string;
  /** words it shares with the content (traps for a lexical match), for reading failures */
  shared?: string[];
}

export interface Dataset {
  onTopic: OnTopicQuestion[];
  offTopic: OffTopicQuestion[];
}

/**
 * The file of a set: none → questions.json; a name ("fresh") → questions-<name>.json beside it; a path (with a
 * slash or ending in .json) as given, relative to the working directory.
 */
/**
 * The split every bench of this folder uses: a question whose id ends in an even number ("fresh-002", "it-4") is in
 * the calibration half, an odd one ("fresh-001") in the held-out half. (Until 2026-11-26 the split was by position,
 * and position 0 holds id 1: the printed "calibration" half was the odd ids. Rounds 6–7 tuned on even ids.)
 */
export function isHeldOut(id: string): boolean {
  const n = /(\d+)$/.exec(id);
  if (!n) throw new Error(`question id without a number: ${id}`);
  return Number(n[1]) % 2 === 1;
}

/**
 * Sets that are measured only (their figures, never their questions one by one): questions-staff3.json, written in
 * stop 25 by someone who had read neither the code nor the other sets, to tell how the answers do on questions no
 * round has seen; questions-new22.json to questions-new26.json, each written fresh before its
 * round changed code. A tool that lists questions must skip these ids and the fresh set's held-out ones.
 */
export const MEASURE_ONLY_ID_PREFIXES = [
  "staff3-",
  "new22-",
  "new23-",
  "new24-",
  "new25-",
  "new26-",
] as const;

/** Whether a tuning round may read this question one by one: the tuned set, the fresh set's even ids. */
export function mayInspect(id: string): boolean {
  if (MEASURE_ONLY_ID_PREFIXES.some((p) => id.startsWith(p))) return false;
  return !id.startsWith("fresh-") || !isHeldOut(id);
}

export function setFile(set?: string): string {
  if (!set) return path.join(SETS_DIR, "questions.json");
  if (set.includes("/") || set.endsWith(".json")) return path.resolve(set);
  if (!/^[a-z0-9-]+$/i.test(set)) throw new Error(`--set: not a set name or a .json file: ${set}`);
  return path.join(SETS_DIR, `questions-${set}.json`);
}

/** The multi-turn sets (conversations, bench/answers/multi-turn.ts): not single-question sets. */
export const MULTI_TURN_SETS = ["questions-followups.json"] as const;

/** Every single-question set file in bench/answers (questions.json and questions-*.json, not the multi-turn ones). */
export function setFiles(): string[] {
  return fs
    .readdirSync(SETS_DIR)
    .filter((f) => /^questions(-[a-z0-9-]+)?\.json$/i.test(f))
    .filter((f) => !(MULTI_TURN_SETS as readonly string[]).includes(f))
    .sort()
    .map((f) => path.join(SETS_DIR, f));
}

export function readDataset(file: string): Dataset {
  return JSON.parse(fs.readFileSync(file, "utf8")) as Dataset;
}

/** The default set (questions.json). */
export const dataset: Dataset = readDataset(setFile());

export interface SampleArticle {
  slug: string;
  /** path under content/, e.g. "procedurer/databrud.md" (the knowledge service's sourceId) */
  sourcePath: string;
  title: string;
  /** Markdown headings and the "Titel: …" lines that read as headings */
  headings: string[];
  /** the Markdown after the front matter */
  body: string;
}

/** The article slug of a knowledge-base source id or path ("procedurer/databrud.md" → "databrud"). */
export function slugOf(sourcePath: string): string {
  return path.basename(sourcePath).replace(/\.md$/i, "");
}

/** Every Markdown file under content/, by slug. */
export function sampleArticles(dir = CONTENT_DIR): Map<string, SampleArticle> {
  const out = new Map<string, SampleArticle>();
  const walk = (sub: string) => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = path.posix.join(sub, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith(".md")) {
        const text = fs.readFileSync(path.join(dir, rel), "utf8").replace(/\r\n?/g, "\n");
        const fm = /^---\n([\s\S]*?)\n---\n/.exec(text);
        const body = fm ? text.slice(fm[0].length) : text;
        const title = /^title:\s*(.+)$/m.exec(fm?.[1] ?? "")?.[1].trim() ?? "";
        const headings = [...body.matchAll(/^(?:#{1,6}\s+|Titel:\s*)(.+?)\s*$/gm)].map((m) => m[1]);
        out.set(slugOf(rel), { slug: slugOf(rel), sourcePath: rel, title, headings, body });
      }
    }
  };
  walk("");
  return out;
}

/** Whitespace collapsed: sentences are compared as read, not as laid out. */
export function squash(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
