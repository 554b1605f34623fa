/**
 * One calibration question on the chat's retrieval-only path, in detail: `npx tsx bench/answers/why.ts [--set name] id…`
 * prints the question's stems and weights, every candidate (relevance, coverage, best-sentence evidence, quoted or
 * not) and the evidence of each answering sentence. Held-out ids (the fresh set's odd ones) are refused.
 */
import { questionEvidence, sentenceEvidence, sentences } from "../../api/src/chat/answer/evidence";
import { quoteEvidence } from "../../api/src/chat/answer/quotes";
import type { Passage } from "../../api/src/chat/answer/types";
import { plainText } from "../../api/src/markdown/sanitize";
import { KnowledgeIndex } from "../../api/src/search/search.index";
import { sampleArticles } from "../../api/src/search/search.test-helpers";
import { chatPath } from "./chat-path";
import { mayInspect, readDataset, setFile, slugOf, squash } from "./dataset";

const args = process.argv.slice(2);
const si = args.indexOf("--set");
const set = si >= 0 ? args[si + 1] : undefined;
const ids = args.filter((a, i) => !a.startsWith("--") && (si < 0 || i !== si + 1));
const data = readDataset(setFile(set));
const index = new KnowledgeIndex();
const articles = await sampleArticles();
await index.rebuildFrom(articles);
const slugById = new Map(articles.map((a) => [a.id, slugOf(a.id)]));
const name = (p: Passage) => [slugById.get(p.articleId), ...p.headingPath].join(" › ");
for (const id of ids) {
  if (!mayInspect(id)) throw new Error(`${id} is held out or in a measure-only set`);
  const q = data.onTopic.find((x) => x.id === id);
  if (!q) continue;
  const r = await chatPath(index, q.question);
  const ev = questionEvidence(q.question, r.passages);
  console.log(`\n${id} [${q.kind}] ${q.question}\n  ok: ${q.articles.join(", ")}\n  answer: ${q.answers[0]}`);
  console.log(
    `  weights: ${[...ev.weights].map(([s, w]) => `${s}=${w.toFixed(2)}`).join(" ")} answer=${ev.answerWeight.toFixed(2)} deadline-heading=${ev.headingWeight.toFixed(2)}`,
  );
  for (const p of r.passages) {
    const at = r.quoted.indexOf(p);
    console.log(
      `  ${at >= 0 ? `Q${at + 1}` : "  "} s${p.score.toFixed(2)} c${(p.coverage ?? -1).toFixed(2)} e${quoteEvidence(p, ev, r.relevant[0]?.articleId).toFixed(2)} ${name(p)}`,
    );
  }
  const answers = q.answers.map(squash);
  for (const a of articles.filter((a) => q.articles.includes(slugOf(a.id))))
    for (const p of index.passagesOf(a.id))
      for (const s of sentences(plainText(p.text)).map((x) => x.trim()))
        if (answers.some((x) => squash(s).includes(x) || (x.includes(squash(s)) && s.length > 30)))
          console.log(
            `  answer sentence e${sentenceEvidence(s, ev).toFixed(2)} in ${[slugOf(a.id), ...p.headingPath].join(" › ")}: ${s.slice(0, 160)}`,
          );
  for (const [i, t] of r.quotes.entries())
    console.log(`  quote ${i + 1}: ${t.slice(0, 200).replace(/\n/g, " ")}`);
}
