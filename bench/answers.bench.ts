/**
 * Answer-quality benchmark: `npm run bench:answers` (options: `--json`, `--failures`, `--mode retrieval|hybrid`,
 * `--split`: the figures also for the questions with even-numbered ids (the half tuned on) and the
 * odd-numbered ids (held out; `isHeldOut` in answers/dataset.ts), and the gate's operating point over thresholds for both halves; `--set NAME`:
 * bench/answers/questions-NAME.json instead of questions.json, e.g. `--set fresh`, `--set calib4` (round 18's
 * calibration set, fitted on whole: its --split halves are both calibration), or `--set path/to/set.json`;
 * a multi-turn set, `--set followups`, asks each conversation in one session: bench/answers/multi-turn.ts).
 *
 * Asks every question of the set (default bench/answers/questions.json: on-topic questions over the sample content, written the
 * way staff ask, and off-topic ones) through the product, in two modes:
 *   retrieval  the embedded default: BM25 retrieval, retrieval-only answers;
 *   hybrid     OPENAI_EMBEDDING_MODEL set, embeddings from the fake OpenAI server (its deterministic hashed
 *              bag-of-words embedder, the one the knowledge service's hybrid tests use), retrieval-only answers.
 * Each mode starts the whole app over a fresh in-memory store with the sample content (startTestApp), then per
 * question: the knowledge search (knowledge.search, as the search page) and the chat answer (ChatService:
 * a new session, sendMessage, the stored answer). In hybrid mode the app's own chat would ask the LLM, so the
 * answer comes from a ChatService built like createServices' but without an LLM: retrieval-only over the same
 * hybrid retrieval (the relevance gate, which decides "not in the knowledge base", is the same in LLM mode).
 *
 * Figures: search recall@1, recall@5 and MRR@10 over articles; chat cited-correct (the answer cites an acceptable
 * article; also: its first citation does), answer-in-quote (an answering sentence is in the quoted text),
 * on-topic wrongly declined, off-topic correctly declined; and the same per kind of question.
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import { DEFAULT_MIN_SCORE, LLM_MIN_SCORE } from "../api/src/chat/answer/answer.service";
import { ChatService } from "../api/src/chat/chat.service";
import { GATE_PROBABILITY } from "../api/src/search/search.passage-relevance";
import { startTestApp, type TestApp } from "../api/src/testing/app";
import { type FakeOpenAI, startFakeOpenAI } from "../api/src/testing/fake-openai";
import { type Dataset, isHeldOut, KINDS, mayInspect, readDataset, setFile, slugOf } from "./answers/dataset";
import { gateEvidence, operatingPoint } from "./answers/features";
import {
  isMultiTurnFile,
  multiTurnReport,
  observationOf,
  readConversations,
  runConversations,
} from "./answers/multi-turn";
import {
  type ModeFigures,
  modeFigures,
  type Observation,
  type OffTopicOutcome,
  type OnTopicFigures,
  type OnTopicOutcome,
  onTopicFailed,
  SEARCH_DEPTH,
  scoreOffTopic,
  scoreOnTopic,
} from "./answers/score";

const MODES = ["retrieval", "hybrid"] as const;
type Mode = (typeof MODES)[number];

/** how long hybrid mode waits for the sample content's passages to be embedded */
const EMBEDDING_WAIT_MS = 60_000;

interface ModeRun {
  mode: Mode;
  figures: ModeFigures;
  onTopic: OnTopicOutcome[];
  offTopic: OffTopicOutcome[];
  seconds: number;
}

function parseArgs(argv: string[]) {
  const i = argv.indexOf("--mode");
  const only = i >= 0 ? argv[i + 1] : undefined;
  if (only !== undefined && !(MODES as readonly string[]).includes(only)) {
    throw new Error(`--mode must be one of ${MODES.join(", ")}`);
  }
  const s = argv.indexOf("--set");
  if (s >= 0 && !argv[s + 1]) throw new Error("--set needs a set name or a .json file");
  return {
    setFile: setFile(s >= 0 ? argv[s + 1] : undefined),
    json: argv.includes("--json"),
    failures: argv.includes("--failures"),
    split: argv.includes("--split"),
    modes: only ? [only as Mode] : [...MODES],
  };
}

async function startMode(mode: Mode): Promise<{ app: TestApp; fake: FakeOpenAI | null }> {
  if (mode === "retrieval") return { app: await startTestApp({ mail: "outbox" }), fake: null };
  const fake = await startFakeOpenAI({ apiKey: "sk-bench" });
  const app = await startTestApp({
    mail: "outbox",
    config: {
      openaiApiKey: "sk-bench",
      openaiBaseUrl: fake.baseURL,
      openaiEmbeddingModel: "text-embedding-bench",
    },
  });
  // the text index is ready at start-up; the passages are embedded right after, in the background
  const deadline = Date.now() + EMBEDDING_WAIT_MS;
  while ((await app.services.knowledge.stats()).pendingEmbeddings > 0) {
    if (Date.now() > deadline) throw new Error("hybrid mode: the sample content was not embedded in time");
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!app.services.knowledge.hybrid) throw new Error("hybrid mode: retrieval is not hybrid");
  return { app, fake };
}

/** The chat's retrieval-only answer path over this app's knowledge service. */
function retrievalOnlyChat(app: TestApp): { chat: ChatService; own: boolean } {
  if (app.services.chat.mode === "retrieval") return { chat: app.services.chat, own: false };
  const chat = new ChatService({
    config: app.config,
    retrieve: (query, k) => app.services.knowledge.chatPassages(query, k),
    users: { emailOf: (id) => app.services.users.emailOf(id), languageOf: async () => "da" },
    llm: null,
  });
  return { chat, own: true };
}

async function runMode(mode: Mode, dataset: Dataset): Promise<ModeRun> {
  const t0 = performance.now();
  const { app, fake } = await startMode(mode);
  const { chat, own } = retrievalOnlyChat(app);
  try {
    const knowledge = app.services.knowledge;
    const slugById = new Map((await knowledge.listArticles()).map((a) => [a.id, slugOf(a.sourceId)]));
    const admin = await app.services.users.findByLogin(app.admin.email);
    const userId = String(admin._id);

    const observe = async (question: string): Promise<Observation> => {
      const found = await knowledge.search(null, { query: question, limit: SEARCH_DEPTH });
      const searchHits = found.hits.map((h) => slugOf(h.article.sourceId));
      // a session per question: no earlier turn leaks into the retrieval query
      const session = await chat.createSession(userId);
      const sent = await chat.sendMessage(userId, session.sessionId, question);
      await chat.whenIdle();
      return observationOf(await chat.getMessage(userId, sent.assistantMessage.id), slugById, searchHits);
    };

    const onTopic: OnTopicOutcome[] = [];
    for (const q of dataset.onTopic) onTopic.push(scoreOnTopic(q, await observe(q.question)));
    const offTopic: OffTopicOutcome[] = [];
    for (const q of dataset.offTopic) offTopic.push(scoreOffTopic(q, await observe(q.question)));
    return {
      mode,
      figures: modeFigures(onTopic, offTopic),
      onTopic,
      offTopic,
      seconds: (performance.now() - t0) / 1000,
    };
  } finally {
    if (own) await chat.close();
    await app.services.chat.whenIdle();
    await app.close();
    await fake?.close();
  }
}

// ---- output ---------------------------------------------------------------------------------------

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const num = (x: number) => x.toFixed(3);

function table(rows: string[][], rightFrom = 1): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows
    .map((r) =>
      r.map((cell, c) => (c < rightFrom ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("   "),
    )
    .join("\n");
}

function summaryTable(runs: ModeRun[]): string {
  const row = (label: string, f: (m: ModeFigures) => string) => [label, ...runs.map((r) => f(r.figures))];
  const on =
    (k: keyof OnTopicFigures, fmt = pct) =>
    (m: ModeFigures) =>
      fmt(m.onTopic[k]);
  const first = runs[0].figures;
  return table([
    ["", ...runs.map((r) => r.mode)],
    ["Search (knowledge.search, by article)", ...runs.map(() => "")],
    row("  recall@1", on("recallAt1")),
    row("  recall@5", on("recallAt5")),
    row(`  MRR@${SEARCH_DEPTH}`, on("mrr", num)),
    ["Chat (retrieval-only answer)", ...runs.map(() => "")],
    row("  cited-correct (any citation)", on("citedCorrect")),
    row("  cited-correct (first citation)", on("firstCitedCorrect")),
    row("  answer-in-quote", on("answerInQuote")),
    row("  on-topic wrongly declined", on("wronglyDeclined")),
    row(`  off-topic correctly declined (${first.offTopic.n})`, (m) => pct(m.offTopic.declined)),
    row(`    office topics (${first.offTopicPerGroup.office.n})`, (m) =>
      pct(m.offTopicPerGroup.office.declined),
    ),
    row(`    general (${first.offTopicPerGroup.general.n})`, (m) => pct(m.offTopicPerGroup.general.declined)),
    row("  answers with an error", (m) => String(m.errors)),
  ]);
}

function kindTable(run: ModeRun): string {
  const rows = [["kind", "n", "R@1", "R@5", "MRR", "cited", "cited@1", "in-quote", "declined"]];
  const line = (label: string, f: OnTopicFigures) => [
    label,
    String(f.n),
    pct(f.recallAt1),
    pct(f.recallAt5),
    num(f.mrr),
    pct(f.citedCorrect),
    pct(f.firstCitedCorrect),
    pct(f.answerInQuote),
    pct(f.wronglyDeclined),
  ];
  for (const k of KINDS) rows.push(line(k, run.figures.perKind[k]));
  rows.push(line("all", run.figures.onTopic));
  return table(rows);
}

function failureList(run: ModeRun): string {
  const out: string[] = [];
  // held-out and measure-only questions are counted, never listed (dataset.ts mayInspect)
  const failedOn = run.onTopic.filter(onTopicFailed).filter((o) => mayInspect(o.id));
  const failedOff = run.offTopic.filter((o) => !o.declined && mayInspect(o.id));
  out.push(
    `Failures — ${run.mode}: ${failedOn.length} of ${run.onTopic.length} on-topic, ${failedOff.length} of ${run.offTopic.length} off-topic (held-out and measure-only questions not listed)`,
  );
  for (const o of failedOn) {
    const search = o.searchRank === null ? `not in top ${SEARCH_DEPTH}` : `#${o.searchRank}`;
    const chat = o.error
      ? `error (${o.error})`
      : o.declined
        ? "declined"
        : `quotes ${o.sections.join(" | ")}${o.answerInQuote ? "" : " (answering sentence not among them)"}`;
    out.push(
      `  [${o.kind}] ${o.id}: ${JSON.stringify(o.question)}`,
      `      expected: ${o.expected.join(" | ")}`,
      `      got:      search ${search} (top: ${o.searchTop.join(", ") || "none"}); chat ${chat}`,
    );
  }
  for (const o of failedOff) {
    out.push(
      `  [off-topic ${o.group}] ${o.id}: ${JSON.stringify(o.question)}`,
      "      expected: declined",
      `      got:      ${o.error ? `error (${o.error})` : `answered, quotes ${o.sections.join(" | ")}`}; search top: ${o.searchTop.join(", ") || "none"}`,
    );
  }
  return out.join("\n");
}

/** The same figures for the calibration (even ids) or held-out (odd ids) questions of each list. */
function half(run: ModeRun, parity: 0 | 1): ModeRun {
  const inHalf = (q: { id: string }) => isHeldOut(q.id) === (parity === 1);
  const onTopic = run.onTopic.filter(inHalf);
  const offTopic = run.offTopic.filter(inHalf);
  return { ...run, onTopic, offTopic, figures: modeFigures(onTopic, offTopic) };
}

/** The gate's operating point: false "not covered" and false "covered" per threshold, per half (retrieval mode). */
async function gateReport(dataset: Dataset): Promise<string> {
  const ev = await gateEvidence(dataset);
  const rows = [
    [
      "relevance threshold",
      "even: false not-covered",
      "false covered",
      "odd: false not-covered",
      "false covered",
    ],
  ];
  for (const t of [LLM_MIN_SCORE, 0.2, DEFAULT_MIN_SCORE, 0.3, 0.35, 0.45]) {
    const e = operatingPoint(
      ev.filter((x) => x.half === "even"),
      t,
    );
    const o = operatingPoint(
      ev.filter((x) => x.half === "odd"),
      t,
    );
    rows.push([
      `${t.toFixed(2)}${t === DEFAULT_MIN_SCORE ? " (the chat's)" : t === LLM_MIN_SCORE ? " (with a model)" : ""}`,
      pct(e.falseNotCovered),
      pct(e.falseCovered),
      pct(o.falseNotCovered),
      pct(o.falseCovered),
    ]);
  }
  return [
    `Relevance gate (retrieval mode, index over the sample content): covered when the model's probability >= ${GATE_PROBABILITY}, i.e. relevance >= ${DEFAULT_MIN_SCORE}`,
    table(rows),
  ].join("\n");
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (isMultiTurnFile(args.setFile)) {
    const set = readConversations(args.setFile);
    for (const mode of args.modes) {
      const { app, fake } = await startMode(mode);
      try {
        const outcomes = await runConversations(app, set);
        process.stdout.write(
          `${args.json ? JSON.stringify({ mode, outcomes }, null, 2) : multiTurnReport(mode, outcomes, args.failures)}\n\n`,
        );
      } finally {
        await app.close();
        await fake?.close();
      }
    }
    return;
  }
  const dataset = readDataset(args.setFile);
  const runs: ModeRun[] = [];
  for (const mode of args.modes) runs.push(await runMode(mode, dataset));

  if (args.json) {
    const body = {
      dataset: {
        file: path.relative(process.cwd(), args.setFile),
        onTopic: dataset.onTopic.length,
        offTopic: dataset.offTopic.length,
      },
      searchDepth: SEARCH_DEPTH,
      modes: Object.fromEntries(
        runs.map((r) => [r.mode, { figures: r.figures, onTopic: r.onTopic, offTopic: r.offTopic }]),
      ),
    };
    process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    return;
  }
  const parts = [
    `Answer quality — ${dataset.onTopic.length} on-topic and ${dataset.offTopic.length} off-topic questions (${path.relative(process.cwd(), args.setFile)})`,
    `modes: ${runs.map((r) => `${r.mode} ${r.seconds.toFixed(1)} s`).join(", ")}`,
    "",
    summaryTable(runs),
  ];
  for (const r of runs) parts.push("", `Per kind — ${r.mode}`, kindTable(r));
  if (args.split) {
    parts.push("", "Calibration half (even-numbered ids)", summaryTable(runs.map((r) => half(r, 0))));
    parts.push("", "Held-out half (odd-numbered ids)", summaryTable(runs.map((r) => half(r, 1))));
    parts.push("", await gateReport(dataset));
  }
  if (args.failures) for (const r of runs) parts.push("", failureList(r));
  process.stdout.write(`${parts.join("\n")}\n`);
}

await main();
