/**
 * The relevance gate's evidence per question, straight from the index over the sample content (no app): the
 * features of the gate's model for the best-covering passage (what the gate was fitted on, on the even-numbered
 * questions), and the best relevance the chat would see (what the gate decides on). Not part of the product.
 */

import { DEFAULT_RETRIEVE_K } from "../../api/src/chat/answer/answer.service";
import { relevances } from "../../api/src/knowledge/knowledge.retrieval";
import { KnowledgeIndex } from "../../api/src/search/search.index";
import { sampleArticles } from "../../api/src/search/search.test-helpers";
import { type Dataset, dataset as defaultSet, isHeldOut } from "./dataset";

export interface GateEvidence {
  id: string;
  onTopic: boolean;
  /** even = calibration half, odd = held-out half (the id's number: isHeldOut) */
  half: "even" | "odd";
  coverage: number;
  matched: number;
  runnerUp: number;
  words: number;
  ofWords: number;
  /** the best relevance among the passages the chat is given */
  relevance: number;
}

export async function gateEvidence(dataset: Dataset = defaultSet): Promise<GateEvidence[]> {
  const index = new KnowledgeIndex();
  await index.rebuildFrom(await sampleArticles());
  const out: GateEvidence[] = [];
  const all = [
    ...dataset.onTopic.map((q, i) => ({ ...q, onTopic: true, i })),
    ...dataset.offTopic.map((q, i) => ({ ...q, onTopic: false, i })),
  ];
  for (const q of all) {
    const res = await index.retrieve(q.question, { k: DEFAULT_RETRIEVE_K });
    const best = [...res.passages].sort((a, b) => (b.coverage ?? 0) - (a.coverage ?? 0))[0];
    const other = res.passages.filter((p) => best && p.articleId !== best.articleId);
    out.push({
      id: q.id,
      onTopic: q.onTopic,
      half: isHeldOut(q.id) ? "odd" : "even",
      coverage: best?.coverage ?? 0,
      matched: best?.matchedIdf ?? 0,
      runnerUp: Math.max(0, ...other.map((p) => p.coverage ?? 0)),
      words: best?.matchedWords ?? 0,
      ofWords: best?.questionWords ?? 0,
      relevance: Math.max(0, ...relevances(res)),
    });
  }
  return out;
}

/** False "not covered" (on-topic below the threshold) and false "covered" (off-topic at or above it). */
export function operatingPoint(ev: GateEvidence[], threshold: number) {
  const on = ev.filter((e) => e.onTopic);
  const off = ev.filter((e) => !e.onTopic);
  return {
    falseNotCovered: on.filter((e) => e.relevance < threshold).length / Math.max(1, on.length),
    falseCovered: off.filter((e) => e.relevance >= threshold).length / Math.max(1, off.length),
  };
}
