/**
 * The relevance gate's evidence per question, straight from the index (no app): for `npm run bench:answers
 * -- --gate`, and for calibrating the gate (bench/answers/gate.ts). Not part of the product.
 */
import { KnowledgeIndex } from "../../api/src/search/search.index";
import { sampleArticles } from "../../api/src/search/search.test-helpers";
import { dataset } from "./dataset";

export interface GateEvidence {
  id: string;
  onTopic: boolean;
  question: string;
  /** coverage and matched IDF of the best passage, and the best coverage among other articles' passages */
  coverage: number;
  matched: number;
  runnerUp: number;
  words: number;
  ofWords: number;
}

export async function gateEvidence(): Promise<GateEvidence[]> {
  const index = new KnowledgeIndex();
  await index.rebuildFrom(await sampleArticles());
  const out: GateEvidence[] = [];
  const all = [
    ...dataset.onTopic.map((q) => ({ ...q, onTopic: true })),
    ...dataset.offTopic.map((q) => ({ ...q, onTopic: false })),
  ];
  for (const q of all) {
    const res = await index.retrieve(q.question, { k: 10 });
    const best = [...res.passages].sort((a, b) => (b.coverage ?? 0) - (a.coverage ?? 0))[0];
    const other = res.passages.filter((p) => best && p.articleId !== best.articleId);
    out.push({
      id: q.id,
      onTopic: q.onTopic,
      question: q.question,
      coverage: best?.coverage ?? 0,
      matched: best?.matchedIdf ?? 0,
      runnerUp: Math.max(0, ...other.map((p) => p.coverage ?? 0)),
      words: best?.matchedWords ?? 0,
      ofWords: best?.questionWords ?? 0,
    });
  }
  return out;
}
