/**
 * The answer-quality evaluation set (questions.json) and the sample articles it is written against.
 *
 * Articles are named by their slug: the file name under content/ without ".md" (unique across folders), so the
 * set does not depend on database ids. The content is read straight from the Markdown files, not through the
 * knowledge module, so the set can be checked without the code it measures.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import data from "./questions.json";

export const CONTENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../content");

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

export const dataset = data as Dataset;

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
