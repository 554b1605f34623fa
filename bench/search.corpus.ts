/**
 * The search benches' corpus: the queries they time and Danish articles generated from the sample content's
 * vocabulary (deterministic seed). A module of its own so that the benches import it without importing each
 * other: search.bench.ts runs its main() at the top level, and a module that imports it while main() awaits
 * that module's import never finishes loading (node exits with code 13, "unsettled top-level await").
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadContentDir } from "../api/src/knowledge/content";
import type { IndexableArticle } from "../api/src/search/search.types";
import { prng } from "../api/src/testing/prng";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const QUERIES = [
  "Hvad er klagefristen?",
  "hvem attesterer udlæg",
  "sagsbehandling",
  "sagsbehandlingen frister",
  "sagsbehandlnig",
  "generalforsmaling",
  "kontingent rykker",
  "hvornår skal et databrud anmeldes",
  "referat godkendelse bestyrelsen",
  "budgetopfølgning afvigelser",
  "årsregnskab revision",
  "indsigt personoplysninger",
  "generalfors",
  "tegningsret formand",
  "sletning af persondata",
  "betalinger over 250.000 kr",
  "dag",
  "journalisering af dokumenter og notater",
  "økonomimedarbejder",
  "hvordan klager et medlem over en afgørelse fra sekretariatet",
];

/** Store generated articles in knowledge_articles (as local articles), 500 per insert. */
export async function storeArticles(articles: IndexableArticle[]): Promise<void> {
  const { ArticleModel } = await import("../api/src/knowledge/article.model");
  for (let i = 0; i < articles.length; i += 500) {
    await ArticleModel.insertMany(
      articles.slice(i, i + 500).map((a) => ({
        title: a.title,
        content: a.content,
        category: a.category,
        subcategory: a.subcategory ?? null,
        tags: a.tags ?? [],
        source: "local",
        sourceId: `bench/${a.id}.md`,
        contentHash: a.id,
      })),
      { ordered: false },
    );
  }
}

export interface Vocabulary {
  /** Every word occurrence of the sample bodies: sampling from it keeps natural word frequencies. */
  words: string[];
  headings: string[];
  tags: string[];
  categories: string[];
}

export async function vocabulary(): Promise<Vocabulary> {
  const articles = await loadContentDir(path.join(ROOT, "content"));
  const words: string[] = [];
  const headings = new Set<string>();
  const tags = new Set<string>();
  for (const a of articles) {
    for (const line of a.content.split("\n")) {
      const h = /^#{2,3}\s+(.+)$/.exec(line);
      if (h) headings.add(h[1]);
      else for (const w of line.match(/[\p{L}\p{N}]+/gu) ?? []) words.push(w.toLowerCase());
    }
    for (const t of a.tags) tags.add(t);
  }
  return {
    words,
    headings: [...headings],
    tags: [...tags],
    categories: ["Økonomi", "Procedurer", "Roller", "Sagsbehandling", "IT"],
  };
}

export function generate(count: number, vocab: Vocabulary, seed: number): IndexableArticle[] {
  const rand = prng(seed);
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)];
  const sentence = (min: number, max: number) => {
    const n = min + Math.floor(rand() * (max - min + 1));
    const ws = Array.from({ length: n }, () => pick(vocab.words));
    ws[0] = ws[0].charAt(0).toUpperCase() + ws[0].slice(1);
    return `${ws.join(" ")}.`;
  };
  const out: IndexableArticle[] = [];
  for (let i = 0; i < count; i++) {
    const lines: string[] = [];
    const sections = 3 + Math.floor(rand() * 3);
    for (let s = 0; s < sections; s++) {
      lines.push(`## ${pick(vocab.headings)}`, "");
      const paragraphs = 1 + Math.floor(rand() * 2);
      for (let p = 0; p < paragraphs; p++) {
        lines.push(Array.from({ length: 3 + Math.floor(rand() * 3) }, () => sentence(6, 14)).join(" "), "");
      }
      if (rand() < 0.5) for (let b = 0; b < 3; b++) lines.push(`- ${sentence(4, 9)}`);
      lines.push("");
    }
    out.push({
      id: `gen-${i}`,
      title: sentence(2, 5).slice(0, -1),
      content: lines.join("\n"),
      category: pick(vocab.categories),
      subcategory: pick(vocab.tags),
      tags: [pick(vocab.tags), pick(vocab.tags), pick(vocab.tags)],
    });
  }
  return out;
}
