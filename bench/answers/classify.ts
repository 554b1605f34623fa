/**
 * Failure classes of the evaluation set, retrieval mode, straight from the index over the sample content (no app):
 * `npx tsx bench/answers/classify.ts [--list] [--set name|path.json]` (`--questions path.json` as `--set`). Each on-topic question's failures are put
 * into one class per figure, so fixes aim at classes, not at single questions:
 *   search (recall@1): right article 2nd-3rd / lower / missing;
 *   chat: declined (the gate), cited only other articles, right article but the answering passage was not
 *   retrieved / retrieved but not quoted / quoted but the sentence cut out of the quote; padded with other
 *   articles; off-topic passing.
 * Mirrors the chat's retrieval-only path (chat-path.ts: DEFAULT_RETRIEVE_K candidates → relevances → passagesToQuote(relevant,
 * retrieved) → quoteOf); not part of the product.
 */
import type { Passage } from "../../api/src/chat/answer/types";
import { KnowledgeIndex } from "../../api/src/search/search.index";
import { sampleArticles } from "../../api/src/search/search.test-helpers";
import { chatPath } from "./chat-path";
import { type Dataset, isHeldOut, mayInspect, readDataset, setFile, slugOf, squash } from "./dataset";

const args = process.argv.slice(2);
const si = Math.max(args.indexOf("--set"), args.indexOf("--questions"));
const data: Dataset = readDataset(setFile(si >= 0 ? args[si + 1] : undefined));
const list = args.includes("--list");

const index = new KnowledgeIndex();
const articles = await sampleArticles();
await index.rebuildFrom(articles);
const slugById = new Map(articles.map((a) => [a.id, slugOf(a.id)]));
const idBySlug = new Map([...slugById].map(([id, s]) => [s, id]));

const counts = new Map<string, number>();
const lines: string[] = [];
const count = (cls: string, id: string, detail: string) => {
  counts.set(cls, (counts.get(cls) ?? 0) + 1);
  if (mayInspect(id)) lines.push(`${cls.padEnd(34)} ${id.padEnd(14)} ${detail}`);
};

const retrieve = (question: string) => chatPath(index, question);

let n = 0;
// per half (0 = even, calibration; 1 = odd, held out): r1, cited, inQuote, declined, on, offDeclined, off, padded,
// passages quoted (on-topic answers), first quote holds the answering sentence
const fig = [new Array(10).fill(0), new Array(10).fill(0)];
for (const q of data.onTopic) {
  const f = fig[isHeldOut(q.id) ? 1 : 0];
  n++;
  f[4]++;
  const ok = new Set(q.articles);
  const hits = index.search(q.question, { limit: 10 }).hits.map((h) => slugById.get(h.articleId) ?? "?");
  const rank = hits.findIndex((s) => ok.has(s)) + 1;
  if (rank === 1) f[0]++;
  if (rank !== 1) {
    const cls =
      rank === 0 ? "search: missing from top 10" : rank <= 3 ? "search: 2nd-3rd" : "search: 4th-10th";
    count(cls, q.id, `${JSON.stringify(q.question)} top ${hits.slice(0, 3).join(", ")}`);
  }
  const r = await retrieve(q.question);
  const answers = q.answers.map(squash);
  const holds = (text: string) => answers.some((a) => squash(text).includes(a));
  const name = (p: Passage) => [slugById.get(p.articleId), ...p.headingPath].join(" › ");
  if (r.quoted.length === 0) {
    f[3]++;
    const best = [...r.passages].sort((a, b) => b.score - a.score)[0];
    const right = best && ok.has(slugById.get(best.articleId) ?? "");
    count(
      right ? "declined: right article below gate" : "declined: right article not best",
      q.id,
      `${JSON.stringify(q.question)} best ${best ? `${name(best)} ${best.score.toFixed(2)}` : "none"}`,
    );
    continue;
  }
  const citedOk = r.quoted.some((p) => ok.has(slugById.get(p.articleId) ?? ""));
  if (citedOk) f[1]++;
  f[8] += r.quoted.length;
  if (citedOk && r.quoted.some((p) => !ok.has(slugById.get(p.articleId) ?? ""))) f[7]++;
  if (r.quotes.some(holds)) f[2]++;
  if (holds(r.quotes[0])) f[9]++;
  if (!citedOk) {
    const present = r.relevant.some((p) => ok.has(slugById.get(p.articleId) ?? ""));
    count(
      present ? "cited: right article relevant, not quoted" : "cited: only other articles",
      q.id,
      `${JSON.stringify(q.question)} quoted ${r.quoted.map(name).join(" | ")}`,
    );
  } else if (r.quoted.some((p) => !ok.has(slugById.get(p.articleId) ?? ""))) {
    count("padded: other articles quoted too", q.id, r.quoted.map(name).join(" | "));
  }
  if (!r.quotes.some(holds)) {
    const inQuotedPassage = r.quoted.some((p) => holds(p.text));
    const inRetrieved = r.passages.some((p) => holds(p.text));
    const inRelevant = r.relevant.some((p) => holds(p.text));
    const answerPassage = q.articles
      .flatMap((s) => index.passagesOf(idBySlug.get(s) ?? ""))
      .find((p) => holds(p.text));
    const cls = inQuotedPassage
      ? "in-quote: cut out of the quote"
      : inRelevant
        ? "in-quote: relevant, not quoted"
        : inRetrieved
          ? "in-quote: retrieved, below gate"
          : "in-quote: not retrieved";
    count(
      cls,
      q.id,
      `${JSON.stringify(q.question)} quoted ${r.quoted.map(name).join(" | ")}; answer in ${answerPassage ? [...answerPassage.headingPath].join(" › ") : "?"}`,
    );
  }
}
let off = 0;
for (const q of data.offTopic) {
  const f = fig[isHeldOut(q.id) ? 1 : 0];
  f[6]++;
  const r = await retrieve(q.question);
  if (r.quoted.length === 0) f[5]++;
  if (r.quoted.length > 0) {
    off++;
    count("off-topic: answered", q.id, `${JSON.stringify(q.question)} quoted ${r.quoted.length}`);
  }
}
for (const [cls, c] of [...counts].sort()) console.log(`${cls.padEnd(40)} ${c}`);
console.log(`on-topic ${n}, off-topic ${data.offTopic.length} (answered ${off})`);
const pc = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)}%`;
for (const [label, f] of [
  ["even", fig[0]],
  ["odd", fig[1]],
  ["all", fig[0].map((x, i) => x + fig[1][i])],
] as const)
  console.log(
    `${label.padEnd(5)} R@1 ${pc(f[0], f[4])}  cited ${pc(f[1], f[4])}  in-quote ${pc(f[2], f[4])} (first quote ${pc(f[9], f[4])})  wrongly declined ${pc(f[3], f[4])}  off-topic declined ${pc(f[5], f[6])}  padded ${f[7]}  quoted/answer ${(f[8] / Math.max(1, f[4] - f[3])).toFixed(2)}`,
  );
if (list) console.log(lines.sort().join("\n"));
