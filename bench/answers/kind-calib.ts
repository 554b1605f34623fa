/**
 * Per kind, the calibration questions' figures on the chat's retrieval-only path (chat-path.ts, no app):
 * `npx tsx bench/answers/kind-calib.ts [--set name] [--list kind]`: R@1, cited, first quote's article right,
 * in-quote, the answering sentence in the first quote. Only calibration ids (the tuned set, the fresh set's even
 * ids) are read; `--list kind` (or `all`) prints that kind's questions whose figures are not all right.
 */
import { KnowledgeIndex } from "../../api/src/search/search.index";
import { sampleArticles } from "../../api/src/search/search.test-helpers";
import { chatPath } from "./chat-path";
import { mayInspect, readDataset, setFile, slugOf, squash } from "./dataset";

const args = process.argv.slice(2);
const si = args.indexOf("--set");
const li = args.indexOf("--list");
const listKind = li >= 0 ? args[li + 1] : undefined;
const data = readDataset(setFile(si >= 0 ? args[si + 1] : undefined));
const index = new KnowledgeIndex();
const articles = await sampleArticles();
await index.rebuildFrom(articles);
const slugById = new Map(articles.map((a) => [a.id, slugOf(a.id)]));
const rows = new Map<string, number[]>();
const lines: string[] = [];
for (const q of data.onTopic) {
  if (!mayInspect(q.id)) continue;
  const ok = new Set(q.articles);
  const right = (id: string) => ok.has(slugById.get(id) ?? "");
  const first = index.search(q.question, { limit: 1 }).hits[0];
  const r = await chatPath(index, q.question);
  const answers = q.answers.map(squash);
  const holds = (text: string | undefined) =>
    text !== undefined && answers.some((a) => squash(text).includes(a));
  const f = [
    first && right(first.articleId) ? 1 : 0,
    r.quoted.some((p) => right(p.articleId)) ? 1 : 0,
    r.quoted[0] && right(r.quoted[0].articleId) ? 1 : 0,
    r.quotes.some(holds) ? 1 : 0,
    holds(r.quotes[0]) ? 1 : 0,
  ];
  for (const k of [q.kind, "all"]) {
    const row = rows.get(k) ?? [0, 0, 0, 0, 0, 0];
    row[0]++;
    f.forEach((x, i) => {
      row[i + 1] += x;
    });
    rows.set(k, row);
  }
  if ((q.kind === listKind || listKind === "all") && f.some((x) => x === 0))
    lines.push(`${q.id.padEnd(12)} ${f.join(" ")}  ${q.question}`);
}
const pc = (a: number, n: number) => `${((100 * a) / n).toFixed(1)}%`.padStart(7);
console.log("kind          n     R@1   cited  cited@1 in-quote first-q");
for (const [k, [n, ...f]] of rows)
  console.log(`${k.padEnd(12)} ${String(n).padStart(3)} ${f.map((x) => pc(x, n)).join(" ")}`);
if (listKind) console.log(`R@1 cited cited@1 in-quote first-q\n${lines.join("\n")}`);
