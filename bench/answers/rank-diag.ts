/**
 * Why search ranked an article first (calibration data only: the tuned set and the fresh set's even ids):
 * `npx tsx bench/answers/rank-diag.ts [--set fresh] [--all] [id…]`. Per question whose right article is not first
 * (`--all`: every question; ids: those), the question's concepts (IDF and first index terms; "+pre" when a prefix
 * covers it too) and the best re-ranked articles with the parts of their rank (search.coverage.ts: coverage,
 * heading coverage, BM25 share, best section's coverage) and, per concept, whether the article covers it ("+"),
 * in a heading too ("H") or not ("."). With --set, the held-out (odd) ids are never read or printed. Not part of
 * the product; it reads the index's internals.
 */
import { coverageOf, RERANK_POOL, type TermSets } from "../../api/src/search/search.coverage";
import { KnowledgeIndex } from "../../api/src/search/search.index";
import type { AnalysedQuery, QueryConcept } from "../../api/src/search/search.query";
import { sampleArticles } from "../../api/src/search/search.test-helpers";
import { mayInspect, readDataset, setFile, slugOf } from "./dataset";

const args = process.argv.slice(2);
const si = args.indexOf("--set");
const ids = args.filter((a, i) => !a.startsWith("--") && (si < 0 || i !== si + 1));
const all = args.includes("--all");
const data = readDataset(setFile(si >= 0 ? args[si + 1] : undefined));
const index = new KnowledgeIndex();
const articles = await sampleArticles();
await index.rebuildFrom(articles);
const slugById = new Map(articles.map((a) => [a.id, slugOf(a.id)]));
// biome-ignore lint/suspicious/noExplicitAny: a diagnostic reads the index's internals
const priv = index as any;
const SHOWN = 6;

interface Ranked {
  id: string;
  score: number;
  rank: number;
  cover: { coverage: number; headings: number };
}

/** Per concept: "H" covered in a heading, "+" in the text only, "." not covered. */
function marks(concepts: readonly QueryConcept[], sets: TermSets): string {
  const cover = (c: QueryConcept, s: Set<string>) =>
    coverageOf([c], { all: s, headings: new Set() }).coverage > 0;
  return concepts.map((c) => (cover(c, sets.headings) ? "H" : cover(c, sets.all) ? "+" : ".")).join("");
}

for (const q of data.onTopic) {
  if (!mayInspect(q.id) || (ids.length > 0 && !ids.includes(q.id))) continue;
  const first = index.search(q.question, { limit: 1 }).hits[0];
  if (!all && ids.length === 0 && first && q.articles.includes(slugById.get(first.articleId) ?? "")) continue;
  const a: AnalysedQuery = priv.analyse(q.question);
  const ranked: Ranked[] = priv.articleRanking(a, RERANK_POOL, undefined).ranked;
  const maxScore = Math.max(0, ...ranked.map((r) => r.score));
  console.log(`\n${q.id} [${q.kind}] ${q.question}  right: ${q.articles.join(", ")}`);
  const concepts = a.concepts.map(
    (c) =>
      `${c.word}(${c.idf.toFixed(2)}: ${c.terms.slice(0, 4).join("/")}${c.prefixes.length ? " +pre" : ""})`,
  );
  console.log(`  concepts: ${concepts.join(" ")}`);
  ranked.slice(0, SHOWN).forEach((r, i) => {
    const slug = slugById.get(r.id) ?? r.id;
    let section = 0;
    for (const sets of priv.sectionTerms(r.id) as TermSets[]) {
      section = Math.max(section, coverageOf(a.concepts, sets).coverage);
    }
    const parts = [
      `rank ${r.rank.toFixed(2)}`,
      `cov ${r.cover.coverage.toFixed(2)}`,
      `head ${r.cover.headings.toFixed(2)}`,
      `bm25 ${(maxScore > 0 ? r.score / maxScore : 0).toFixed(2)}`,
      `section ${section.toFixed(2)}`,
      marks(a.concepts, priv.articleTerms(r.id)),
    ];
    console.log(`  ${i + 1}${q.articles.includes(slug) ? "*" : " "} ${slug.padEnd(40)} ${parts.join(" ")}`);
  });
}
