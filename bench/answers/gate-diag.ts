/**
 * Diagnosis of the relevance gate by class (calibration data only: the tuned set and the fresh set's even ids):
 * per question, the passage the gate decides on and, per concept of the question, its IDF and evidence IDF, how
 * many articles hold its first term, and how the passage (and its best sentence) covers it.
 * `npx tsx bench/answers/gate-diag.ts [--set fresh] [--off|--on] [--pass|--fail]`. With --set, the held-out (odd)
 * ids are never read or printed. Not part of the product; it reads the index's internals.
 */
import { DEFAULT_RETRIEVE_K } from "../../api/src/chat/answer/answer.service";
import { relevances } from "../../api/src/knowledge/knowledge.retrieval";
import { analyse } from "../../api/src/search/search.analyzer";
import { coverageOf } from "../../api/src/search/search.coverage";
import { KnowledgeIndex } from "../../api/src/search/search.index";
import type { AnalysedQuery } from "../../api/src/search/search.query";
import { sampleArticles } from "../../api/src/search/search.test-helpers";
import { mayInspect, readDataset, setFile } from "./dataset";

const arg = (n: string) => process.argv.includes(n);
const setName = process.argv.includes("--set") ? process.argv[process.argv.indexOf("--set") + 1] : undefined;
const ds = readDataset(setFile(setName));
const index = new KnowledgeIndex();
await index.rebuildFrom(await sampleArticles());
// biome-ignore lint/suspicious/noExplicitAny: a diagnostic reads the index's internals
const priv = index as any;
const vocab = priv.vocabulary;
const N = vocab.articles;
const qs = [
  ...ds.onTopic.map((q) => ({ id: q.id, question: q.question, on: true, tag: q.kind })),
  ...ds.offTopic.map((q) => ({ id: q.id, question: q.question, on: false, tag: q.group })),
].filter((q) => mayInspect(q.id));
for (const q of qs) {
  if (arg("--off") && q.on) continue;
  if (arg("--on") && !q.on) continue;
  const res = await index.retrieve(q.question, { k: DEFAULT_RETRIEVE_K });
  const rel = relevances(res);
  const best = Math.max(0, ...rel);
  const pass = best >= 0.25;
  if (arg("--pass") && !pass) continue;
  if (arg("--fail") && pass) continue;
  const i = rel.indexOf(best);
  const p = res.passages[i];
  const a: AnalysedQuery = priv.analyse(q.question);
  console.log(
    `\n${q.id} [${q.on ? "ON" : "OFF"} ${q.tag}] ${pass ? "PASS" : "decl"} rel=${best.toFixed(2)}  ${q.question}`,
  );
  if (!p) continue;
  const sets = priv.passageTerms(p.id);
  console.log(
    `  -> ${p.articleId} cov=${p.coverage?.toFixed(2)} m=${p.matchedIdf?.toFixed(2)} w=${p.matchedWords?.toFixed(2)}/${p.questionWords}`,
  );
  const sentences = p.text.split(/(?<=[.!?:])\s+|\n+/).map((s) => new Set(analyse(s)));
  for (const c of a.concepts) {
    const one = coverageOf([c], sets).coverage;
    const terms = c.terms.slice(0, 4).join(",");
    let bestSentence = 0;
    for (const s of sentences)
      bestSentence = Math.max(bestSentence, coverageOf([c], { all: s, headings: new Set() }).coverage);
    const dfs = c.terms.length ? Math.max(...c.terms.slice(0, 1).map((t) => vocab.articlesWith(t))) : 0;
    console.log(
      `    ${c.word.padEnd(18)} idf=${c.idf.toFixed(2)} evidence=${(c.evidenceIdf ?? c.idf).toFixed(2)} ` +
        `df(first term)=${dfs}/${N} cov=${one.toFixed(2)} best sentence=${bestSentence.toFixed(2)} ` +
        `thesaurus=${c.loose ? [...c.loose].join(",") : ""}${c.unplaced ? " unplaced" : ""} [${terms}]`,
    );
  }
}
