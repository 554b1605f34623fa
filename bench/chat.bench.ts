/**
 * Chat benchmark: `npm run bench:chat` (optionally `-- --sessions 50 --rounds 3 --articles 20000`).
 *
 * 1. First-token overhead. The server (startTestApp: the whole app over the embedded store) runs in the main
 *    thread; the fake OpenAI server (the provider) and the N graphql-ws clients (the browsers) each run in their
 *    own worker thread, so their work does not count as ours. The provider sends its first token after 300 ms,
 *    then a token every 50 ms (~5 s per answer). Measured by each client: (first DELTA event received − the
 *    moment its sendMessage mutation was sent) − 300 ms: the mutation, storing the question, retrieval, the LLM
 *    request, stream parsing, pub/sub and the websocket. Two loads:
 *      burst:  all N sessions send at the same moment;
 *      steady: a new question every 100 ms, so about N answers are streaming while each one starts.
 *    Goal: p95 ≤ 30 ms at 50 concurrent sessions.
 * 2. Retrieval: the chat's retrieval (the knowledge service's chatPassages: index retrieval, relevance, the best article's other sections, the
 *    store freshness check) with the search benchmark's generated articles (same generator and seed) stored in
 *    knowledge_articles, k = 6, the search benchmark's queries.
 */
import { performance } from "node:perf_hooks";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

const FIRST_TOKEN_MS = 300;
const TOKEN_MS = 50;
/** about 100 stream tokens: at 50 ms per token an answer streams for ~5 s */
const LONG_ANSWER = `${"Klagefristen er fire uger fra modtagelsen af afgørelsen. ".repeat(5)}[1]`;
const QUESTION = "Hvad er klagefristen for en afgørelse?";
const SEED = 20251122;

interface ClientPlan {
  graphqlUrl: string;
  wsUrl: string;
  setups: Array<{ token: string; sessionId: string }>;
  rounds: number;
}
interface ClientResults {
  burst: number[][];
  steady: number[][];
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : Number.NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(values: number[]): string {
  const s = [...values].sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(1).padStart(7);
  return `n=${String(s.length).padStart(4)}  p50 ${f(percentile(s, 50))} ms  p95 ${f(percentile(s, 95))} ms  max ${f(s.at(-1) ?? 0)} ms`;
}

/** Worker: the LLM provider. */
async function runFakeProvider(): Promise<void> {
  const { startFakeOpenAI } = await import("../api/src/testing/fake-openai");
  const fake = await startFakeOpenAI({
    reply: (req) => (req.stream ? LONG_ANSWER : "Klagefrist"),
    firstTokenDelayMs: FIRST_TOKEN_MS,
    tokenDelayMs: TOKEN_MS,
  });
  parentPort?.postMessage({ baseURL: fake.baseURL });
  parentPort?.once("message", async () => {
    await fake.close();
    process.exit(0);
  });
}

/** Worker: the browsers. Each measures its own first-token time. */
async function runClients(plan: ClientPlan): Promise<void> {
  const { EventCollector, gqlOk, Q, wsClient } = await import("../api/src/chat/chat.test-helpers");
  const app = { graphqlUrl: plan.graphqlUrl, wsUrl: plan.wsUrl };
  const clients = plan.setups.map((s) => wsClient(app, s.token));
  const sessions = plan.setups.map((s, i) => ({ ...s, events: new EventCollector(clients[i], s.sessionId) }));
  await new Promise((r) => setTimeout(r, 1_000)); // every subscription is set up
  const ask = async (s: (typeof sessions)[number]): Promise<number> => {
    const sentAt = performance.now();
    const sent = await gqlOk(app, Q.send, { sessionId: s.sessionId, content: QUESTION }, s.token);
    const id = sent.sendMessage.assistantMessage.id as string;
    await s.events.untilEnded(id, 120_000);
    const first = s.events.firstDeltaAt.get(id);
    if (first === undefined) throw new Error(`no delta for ${id}`);
    return first - sentAt - FIRST_TOKEN_MS;
  };
  const results: ClientResults = { burst: [], steady: [] };
  for (let round = 0; round <= plan.rounds; round++) results.burst.push(await Promise.all(sessions.map(ask)));
  for (let round = 0; round < 2; round++) {
    results.steady.push(
      await Promise.all(
        sessions.map(async (s, i) => {
          await new Promise((r) => setTimeout(r, i * 100));
          return ask(s);
        }),
      ),
    );
  }
  for (const c of clients) await c.dispose();
  parentPort?.postMessage(results);
}

function startWorker<T>(data: unknown): { worker: Worker; first: Promise<T> } {
  // a worker does not inherit tsx's loader: a tiny ES module registers it and imports this file
  const self = import.meta.url;
  const boot = `const { tsImport } = await import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))});
await tsImport(${JSON.stringify(self)}, ${JSON.stringify(self)});`;
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), {
    workerData: data,
  });
  const first = new Promise<T>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return { worker, first };
}

async function main(): Promise<void> {
  const sessions = arg("sessions", 50);
  const rounds = arg("rounds", 3);
  const articles = arg("articles", 20_000);
  const { startTestApp } = await import("../api/src/testing/app");
  const { createVerifiedUser } = await import("../api/src/testing/client");
  const { gqlOk, Q } = await import("../api/src/chat/chat.test-helpers");
  console.log(
    `Chat benchmark — node ${process.version}, ${sessions} sessions, ${rounds} burst rounds, ${articles} articles`,
  );
  const provider = startWorker<{ baseURL: string }>({ role: "provider" });
  const { baseURL } = await provider.first;
  const app = await startTestApp({
    mail: "outbox",
    config: {
      openaiBaseUrl: baseURL,
      openaiApiKey: "sk-bench",
      openaiModel: "fake-model",
      chatLimits: { llmTimeoutMs: 60_000 },
    },
  });
  try {
    process.stdout.write(`creating ${sessions} users and sessions … `);
    const setups: ClientPlan["setups"] = [];
    for (let i = 0; i < sessions; i++) {
      const { token } = await createVerifiedUser(app);
      const sessionId = (await gqlOk(app, Q.create, {}, token)).createSession.sessionId as string;
      setups.push({ token, sessionId });
    }
    console.log("done");
    const clients = startWorker<ClientResults>({
      role: "clients",
      plan: { graphqlUrl: app.graphqlUrl, wsUrl: app.wsUrl, setups, rounds } satisfies ClientPlan,
    });
    const results = await clients.first;
    await clients.worker.terminate();

    console.log(
      `\nFirst token at a graphql-ws subscriber − ${FIRST_TOKEN_MS} ms (provider and clients in worker threads)`,
    );
    console.log(`Burst: all ${sessions} sessions send at the same moment`);
    for (const [i, r] of results.burst.entries()) {
      console.log(`  ${(i === 0 ? "warm-up (not counted)" : `round ${i}`).padEnd(21)} ${summary(r)}`);
    }
    console.log(
      `  ${"burst, all rounds".padEnd(21)} ${summary(results.burst.slice(1).flat())}   (goal p95 ≤ 30 ms)`,
    );
    console.log(`Steady: ${sessions} answers streaming at once, a new question every 100 ms`);
    for (const [i, r] of results.steady.entries())
      console.log(`  ${`round ${i + 1}`.padEnd(21)} ${summary(r)}`);
    console.log(
      `  ${"steady, all rounds".padEnd(21)} ${summary(results.steady.flat())}   (goal p95 ≤ 30 ms)`,
    );

    await app.services.chat.whenIdle();
    await retrievalBench(app, articles);
  } finally {
    await app.services.chat.whenIdle();
    await app.close();
    provider.worker.postMessage("close");
  }
}

async function retrievalBench(
  app: Awaited<ReturnType<typeof import("../api/src/testing/app").startTestApp>>,
  articles: number,
): Promise<void> {
  const { generate, QUERIES, storeArticles, vocabulary } = await import("./search.corpus");
  const vocab = await vocabulary();
  const generated = generate(articles, vocab, SEED);
  let t0 = performance.now();
  await storeArticles(generated);
  console.log(`\nstored ${articles} generated articles in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  // the knowledge service notices the change at its next freshness check and rebuilds its index
  await new Promise((r) => setTimeout(r, 2_100));
  t0 = performance.now();
  await app.services.knowledge.chatPassages(QUERIES[0], 6);
  const stats = await app.services.knowledge.stats();
  console.log(
    `knowledge index: ${stats.articles} articles, ${stats.passages} passages, loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  for (const q of QUERIES) await app.services.knowledge.chatPassages(q, 6); // warm-up
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    for (const q of QUERIES) {
      const start = performance.now();
      await app.services.knowledge.chatPassages(q, 6);
      times.push(performance.now() - start);
    }
  }
  console.log(
    `Chat retrieval (knowledge.chatPassages, k=6) at ${stats.articles} articles, ${QUERIES.length} queries × 5:`,
  );
  console.log(`  ${summary(times)}`);
}

if (isMainThread) {
  await main();
  process.exit(0);
} else if (workerData?.role === "provider") {
  await runFakeProvider();
} else if (workerData?.role === "clients") {
  await runClients(workerData.plan as ClientPlan);
}
