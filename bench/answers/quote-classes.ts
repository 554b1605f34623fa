/**
 * Why a right article is cited but the answering sentence is not quoted, or a right article in search's top 5 is
 * not cited (retrieval mode, the chat's path as classify.ts mirrors it), by class:
 * `npx tsx bench/answers/quote-classes.ts [--set name] [--list] [--hybrid]` (--hybrid: the test embedder). For the fresh set only the even-numbered ids
 * (fresh-2, fresh-4, ...: the calibration half) are looked at; the odd ones are held out and never listed.
 */
import { DEFAULT_MIN_SCORE } from "../../api/src/chat/answer/answer.service";
import { questionEvidence } from "../../api/src/chat/answer/evidence";
import { LEAD_ARTICLE_MIN_SCORE, quoteEvidence } from "../../api/src/chat/answer/quotes";
import type { Passage } from "../../api/src/chat/answer/types";
import { plainText } from "../../api/src/markdown/sanitize";
import { KnowledgeIndex } from "../../api/src/search/search.index";
import { hashedEmbedder, sampleArticles } from "../../api/src/search/search.test-helpers";
import { chatPath } from "./chat-path";
import { type Dataset, mayInspect, readDataset, setFile, slugOf, squash } from "./dataset";

const args = process.argv.slice(2);
const si = args.indexOf("--set");
const set = si >= 0 ? args[si + 1] : undefined;
const data: Dataset = readDataset(setFile(set));
const list = args.includes("--list");
/** the fresh set's held-out half is never looked at; the tuned set is looked at whole */
const calibration = mayInspect;

const hybrid = args.includes("--hybrid");
const index = new KnowledgeIndex(hybrid ? { embed: hashedEmbedder().embed } : {});
const articles = await sampleArticles();
await index.rebuildFrom(articles);
const slugById = new Map(articles.map((a) => [a.id, slugOf(a.id)]));
const idBySlug = new Map([...slugById].map(([id, s]) => [s, id]));
const slug = (p: { articleId: string }) => slugById.get(p.articleId) ?? "?";
const name = (p: Passage) => [slug(p), ...p.headingPath].join(" › ");
const key = (p: { articleId: string; headingPath: string[]; text: string }) =>
  `${p.articleId}|${p.headingPath.join("/")}|${p.text.slice(0, 80)}`;

const counts = new Map<string, number>();
const lines: string[] = [];
const count = (cls: string, id: string, detail: string) => {
  counts.set(cls, (counts.get(cls) ?? 0) + 1);
  lines.push(`${cls.padEnd(44)} ${id.padEnd(12)} ${detail}`);
};

let n = 0;
let inQuote = 0;
let cited = 0;
/** cited-correct answers that also quote an article that is not acceptable */
let padded = 0;
/** the brief's classes: (a) right article not a candidate, (b) a candidate but not cited, (c) cited, answering
 * section not a candidate, (d) answering section a candidate, not quoted */
const brief = new Map<string, number>();
const briefCount = (cls: string) => brief.set(cls, (brief.get(cls) ?? 0) + 1);
for (const q of data.onTopic) {
  if (!calibration(q.id)) continue;
  n++;
  const ok = new Set(q.articles);
  const { passages, relevant, quoted, quotes } = await chatPath(index, q.question);
  const answers = q.answers.map(squash);
  const holds = (text: string) => answers.some((a) => squash(plainText(text)).includes(a));
  const hits = index.search(q.question, { limit: 10 }).hits.map((h) => slugById.get(h.articleId) ?? "?");
  const rank = hits.findIndex((s) => ok.has(s)) + 1;
  const citedOk = quoted.some((p) => ok.has(slug(p)));
  const good = quotes.some((t) => answers.some((a) => squash(t).includes(a)));
  if (citedOk) cited++;
  if (good) inQuote++;
  if (citedOk && quoted.some((p) => !ok.has(slug(p)))) padded++;
  if (!citedOk)
    briefCount(
      quoted.length === 0
        ? "(gate) declined"
        : passages.some((p) => ok.has(slug(p)))
          ? "(b) right article a candidate, not cited"
          : "(a) right article not a candidate",
    );
  const head = `${JSON.stringify(q.question)} [${q.kind}]`;
  if (!citedOk) {
    if (rank >= 1 && rank <= 5) {
      const cls =
        quoted.length === 0
          ? "not cited: declined (gate)"
          : relevant.some((p) => ok.has(slug(p)))
            ? "not cited: right article relevant, dropped"
            : passages.some((p) => ok.has(slug(p)))
              ? "not cited: right article below the gate"
              : "not cited: right article not among candidates";
      const ev = questionEvidence(q.question, passages);
      const sh = (p: Passage) =>
        `${name(p)} s${p.score.toFixed(2)} c${(p.coverage ?? 0).toFixed(2)} e${quoteEvidence(p, ev, relevant[0]?.articleId).toFixed(2)}`;
      const right = relevant.filter((p) => ok.has(slug(p)))[0];
      count(
        cls,
        q.id,
        `${head} rank ${rank}; quoted ${quoted.map(sh).join(" | ") || "-"}${right ? `; right ${sh(right)}` : ""}`,
      );
    } else count("not cited: search rank > 5", q.id, `${head} rank ${rank || "-"}`);
    continue;
  }
  if (good) continue;
  // a right article is cited, the answering sentence is not quoted: where is the sentence?
  const answering = q.articles
    .flatMap((s) => index.passagesOf(idBySlug.get(s) ?? ""))
    .filter((p) => holds(p.text));
  const where = answering.map((p) => [slug(p), ...p.headingPath].join(" › ")).join(" | ") || "?";
  const ev = questionEvidence(q.question, passages);
  // as the quote choice reads it (relevant: best first, chat-path.ts)
  const e = (p: Parameters<typeof quoteEvidence>[0]) =>
    quoteEvidence(p, ev, relevant[0]?.articleId).toFixed(2);
  const detail = `${head} quoted ${quoted.map((p) => `${name(p)} (${p.score.toFixed(2)} e${e(p)})`).join(" | ")}; answer in ${where} e${answering.map(e).join("/")}`;
  const candidate = passages.some((p) => answering.some((a) => key(a) === key(p)));
  briefCount(
    candidate ? "(d) answering section a candidate, not quoted" : "(c) answering section not a candidate",
  );
  if (answering.length === 0) {
    count("in-quote: sentence in no single passage", q.id, detail);
    continue;
  }
  const keys = new Set(answering.map(key));
  const quotedHolding = quoted.findIndex((p) => keys.has(key(p)));
  if (quotedHolding >= 0) {
    count("in-quote: passage quoted, window cut it", q.id, detail);
    continue;
  }
  const cand = passages.filter((p) => keys.has(key(p)));
  if (cand.length === 0) {
    count("in-quote: answering passage not a candidate", q.id, detail);
    continue;
  }
  const best = cand.sort((a, b) => b.score - a.score)[0];
  const lead = quoted[0].articleId;
  const sameSection = quoted.some(
    (p) => p.articleId === best.articleId && p.headingPath.join("/") === best.headingPath.join("/"),
  );
  const cls = sameSection
    ? "in-quote: other window of the section quoted"
    : best.articleId !== lead
      ? best.score >= DEFAULT_MIN_SCORE
        ? "in-quote: in another right article, relevant, dropped"
        : "in-quote: in another right article, below gate"
      : best.score < LEAD_ARTICLE_MIN_SCORE
        ? "in-quote: lead article, below lead min score"
        : "in-quote: lead article, ranked below the quoted (max 3)";
  count(cls, q.id, `${detail}; its score ${best.score.toFixed(2)}`);
}
console.log(
  `${set ?? "tuned"}${hybrid ? " hybrid" : ""}: ${n} on-topic looked at; cited ${cited}, in-quote ${inQuote}, padded ${padded}`,
);
for (const [cls, c] of [...brief].sort()) console.log(`${cls.padEnd(50)} ${c}`);
for (const [cls, c] of [...counts].sort()) console.log(`${cls.padEnd(50)} ${c}`);
if (list) for (const l of lines.sort()) console.log(l);
