/**
 * The chat parts of `npm run bench:cluster` (bench/cluster.bench.ts):
 * - the fake OpenAI server in a worker thread (its timers do not wait for the clients' work): first token after
 *   FIRST_TOKEN_MS, then a token every TOKEN_MS;
 * - chatBurst: N questions sent at the same moment, each from its own session and websocket; first-token
 *   overhead = (first DELTA at the subscriber − the moment its sendMessage left) − FIRST_TOKEN_MS;
 * - askOnce and seats for the mix's virtual users (bench/cluster/users.ts).
 * Accounts: `makeAccounts` creates up to ACCOUNTS_MAX verified users through the users service (as the CLI does)
 * and signs them in; seat i uses account i % accounts (the mix: several virtual users per account, its
 * per-user answer limit raised through CHAT_LIMITS).
 */
import { performance } from "node:perf_hooks";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import type { LoopStats } from "./cluster/loop-stats.mjs";
import type { CpuSplit } from "./load";

export const FIRST_TOKEN_MS = 300;
const TOKEN_MS = 50;
/** ~40 stream tokens: an answer streams for ~2 s after its first token */
const ANSWER = `${"Klagefristen er fire uger fra modtagelsen. ".repeat(3)}[1]`;
const QUESTION = "Hvad er klagefristen for en afgørelse?";
export const ACCOUNTS_MAX = 50;

export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : Number.NaN;
}

export function summary(values: number[]): string {
  const f = (n: number) => n.toFixed(1).padStart(7);
  return `n=${String(values.length).padStart(5)}  p50 ${f(percentile(values, 50))} ms  p95 ${f(percentile(values, 95))} ms`;
}

export interface Provider {
  baseURL: string;
  /** the model's first token after `ms` from now on (the pre-model measurement holds every answer there) */
  setFirstTokenDelay(ms: number): void;
  /** resolves when `n` more streamed (answer) requests than now have arrived */
  answerRequests(n: number): Promise<void>;
  /** the provider thread's event-loop statistics since the last call (its late timers delay first tokens) */
  loopStats(): Promise<LoopStats>;
  close(): Promise<void>;
}

/** The fake OpenAI server in its own worker thread. */
export async function startProvider(): Promise<Provider> {
  const self = import.meta.url;
  const boot = `const { tsImport } = await import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))});
await tsImport(${JSON.stringify(self)}, ${JSON.stringify(self)});`;
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), {
    workerData: { role: "cluster-provider" },
  });
  const { baseURL } = await new Promise<{ baseURL: string }>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  // streamed requests arrived so far (the worker posts each one) and who waits for a count
  let arrived = 0;
  const waiting: Array<{ at: number; resolve: () => void }> = [];
  worker.on("message", (m: { streamed?: number }) => {
    if (typeof m.streamed !== "number") return;
    arrived = m.streamed;
    for (const w of waiting.filter((x) => x.at <= arrived)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  });
  return {
    baseURL,
    setFirstTokenDelay: (ms) => worker.postMessage({ firstTokenDelayMs: ms }),
    answerRequests: (n) => new Promise<void>((resolve) => waiting.push({ at: arrived + n, resolve })),
    loopStats: () =>
      new Promise<LoopStats>((resolve) => {
        const on = (m: { loopStats?: LoopStats }) => {
          if (!m.loopStats) return;
          worker.off("message", on);
          resolve(m.loopStats);
        };
        worker.on("message", on);
        worker.postMessage({ loopStats: true });
      }),
    close: async () => {
      await worker.terminate();
    },
  };
}

/** `n` verified accounts on the store at `mongodbUri`, signed in through `url`; their tokens. */
export async function makeAccounts(mongodbUri: string, url: string, n: number): Promise<string[]> {
  const { loadConfig } = await import("../api/src/config");
  const { openDatabase } = await import("../api/src/db/connection");
  const { createServices } = await import("../api/src/services");
  const { buildUser, rest } = await import("../api/src/testing/client");
  const config = loadConfig({ ...process.env, MONGODB_URI: mongodbUri, NODE_ENV: "test" });
  const db = await openDatabase(config, { role: "client" });
  const services = createServices(config);
  const inputs = Array.from({ length: n }, () => buildUser());
  try {
    const { user: admin } = await services.users.builtinAdmin();
    for (const input of inputs) await services.users.createUser(admin, { ...input, verified: true });
  } finally {
    await services.close();
    await db.close();
  }
  const tokens: string[] = [];
  for (const input of inputs) {
    const res = await rest({ url }, "POST", "/api/auth/login", {
      body: { email: input.email, password: input.password },
    });
    if (res.status !== 200) throw new Error(`login ${res.status} ${JSON.stringify(res.body)}`);
    tokens.push(res.body.token as string);
  }
  return tokens;
}

type Helpers = typeof import("../api/src/chat/chat.test-helpers");
type ChatClient = ReturnType<Helpers["wsClient"]>;
type Collector = InstanceType<Helpers["EventCollector"]>;

export interface ChatSeat {
  /** where the mutation goes */
  ask: { graphqlUrl: string };
  client: ChatClient;
  events: Collector;
  sessionId: string;
  token: string;
}

const app = (url: string) => ({
  graphqlUrl: `${url}/graphql`,
  wsUrl: `${url.replace("http", "ws")}/graphql`,
});

/** A session with its own websocket subscribed on `listen`, its questions sent through `ask`. */
export async function seat(ask: string, listen: string, token: string): Promise<ChatSeat> {
  const { EventCollector, gqlOk, Q, wsClient } = await import("../api/src/chat/chat.test-helpers");
  const sessionId = (await gqlOk(app(ask), Q.create, {}, token)).createSession.sessionId as string;
  const client = wsClient(app(listen), token);
  return { ask: app(ask), client, events: new EventCollector(client, sessionId), sessionId, token };
}

/** One answered question: its first-token overhead (ms) and the DELTA frames its subscriber received. */
interface Asked {
  overhead: number;
  frames: number;
  /** when the sendMessage request left (µs of the monotonic clock, as CPU profiles and loop-stats time) */
  sentUs: number;
  /** until the sendMessage response was read (ms): the app's work before it answers the mutation */
  respMs: number;
}

/**
 * Send one question; resolves once the answer has ended, with its first-token overhead and frames. An answer
 * whose DELTAs do not add up to the stored text (a token lost, doubled or out of order) is an error.
 */
export async function askOnce(s: ChatSeat, timeoutMs = 30_000): Promise<Asked> {
  const { gqlOk, Q } = await import("../api/src/chat/chat.test-helpers");
  const sentAt = performance.now();
  const sentUs = Number(process.hrtime.bigint() / 1000n);
  const sent = await gqlOk(s.ask, Q.send, { sessionId: s.sessionId, content: QUESTION }, s.token);
  const respMs = performance.now() - sentAt;
  const id = sent.sendMessage.assistantMessage.id as string;
  await s.events.untilEnded(id, timeoutMs + 10_000);
  const end = s.events.events.find((e) => e.messageId === id && e.type !== "DELTA" && e.type !== "CREATED");
  if (end?.type !== "COMPLETED")
    throw new Error(`answer ended ${end?.type} ${end?.message?.error?.code ?? ""}`.trim());
  const first = s.events.firstDeltaAt.get(id);
  if (first === undefined) throw new Error(`no delta for ${id}`);
  const deltas = s.events.events.filter((e) => e.messageId === id && e.type === "DELTA");
  if (deltas.map((e) => e.delta).join("") !== end.message?.content)
    throw new Error(`streamed text of ${id} differs from the stored answer`);
  return { overhead: first - sentAt - FIRST_TOKEN_MS, frames: deltas.length, sentUs, respMs };
}

/**
 * `n` questions at the same moment, `rounds` times (plus one warm-up round, not counted, but reported apart in
 * `first` with its CPU from `firstSampler`). Seat i listens on
 * listen[i % listen.length] and asks through ask[i % ask.length].
 */
export async function chatBurst(
  ask: string[],
  listen: string[],
  tokens: string[],
  n: number,
  rounds: number,
  sampler?: () => { stop(): CpuSplit },
  firstSampler?: () => { stop(): CpuSplit },
): Promise<BurstResult> {
  const seats = await seatsFor(ask, listen, tokens, n);
  const first: BurstResult["first"] = { overheads: [], cpu: null };
  const overheads: number[] = [];
  const samples: string[] = [];
  let errors = 0;
  let cpu: CpuSplit | null = null;
  let frames = 0;
  try {
    let sampling: { stop(): CpuSplit } | null = null;
    let framesBefore = 0;
    for (let round = 0; round <= rounds; round++) {
      if (round === 1) {
        // the warm-up round is over: count CPU and DELTA frames from here
        sampling = sampler?.() ?? null;
        framesBefore = deltaFrames(seats);
      }
      const firstSampling = round === 0 ? (firstSampler?.() ?? null) : null;
      const results = await Promise.allSettled(seats.map((s) => askOnce(s)));
      if (round === 0) {
        first.cpu = firstSampling?.stop() ?? null;
        for (const r of results) if (r.status === "fulfilled") first.overheads.push(r.value.overhead);
        continue;
      }
      for (const r of results) {
        if (r.status === "fulfilled") overheads.push(r.value.overhead);
        else {
          errors++;
          if (samples.length < 3) samples.push(String(r.reason?.message ?? r.reason).slice(0, 160));
        }
      }
    }
    cpu = sampling?.stop() ?? null;
    frames = deltaFrames(seats) - framesBefore;
  } finally {
    await closeSeats(seats);
  }
  return { overheads, errors, samples, cpu, answers: overheads.length, deltaFrames: frames, first };
}

/** Seat i listens on listen[i % listen.length] and asks through ask[i % ask.length]; subscriptions set up. */
async function seatsFor(ask: string[], listen: string[], tokens: string[], n: number): Promise<ChatSeat[]> {
  const seats = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      seat(ask[i % ask.length], listen[i % listen.length], tokens[i % tokens.length]),
    ),
  );
  await new Promise((r) => setTimeout(r, 1_000)); // every subscription is set up
  return seats;
}

async function closeSeats(seats: ChatSeat[]): Promise<void> {
  for (const s of seats) s.events.close();
  await Promise.all(seats.map((s) => s.client.dispose()));
}

export interface PreModelRun {
  cpu: CpuSplit;
  lastRequestMs: number;
  /** the measured interval on the monotonic clock in µs, as V8 CPU profiles time their samples ("from-to") */
  window: string;
}

/** the model's first token during the pre-model measurement: long after the last question's request left */
const HOLD_MS = 5_000;

/**
 * The work before the model request, alone: `n` questions at once while the model holds its first token
 * HOLD_MS (no answer streams meanwhile), the CPU sampled from the sends until the n-th model request has
 * arrived; `rounds` rounds after a warm-up round. Each round's answers then end normally (not counted).
 * Returns each round's CPU and the ms until its n-th model request arrived.
 */
export async function preModelBurst(
  ask: string[],
  tokens: string[],
  n: number,
  rounds: number,
  provider: Provider,
  sampler: () => { stop(): CpuSplit },
): Promise<PreModelRun[]> {
  const seats = await seatsFor(ask, ask, tokens, n);
  const runs: PreModelRun[] = [];
  try {
    await Promise.all(seats.map((s) => askOnce(s))); // warm-up
    provider.setFirstTokenDelay(HOLD_MS);
    await new Promise((r) => setTimeout(r, 100)); // the worker has the new delay
    for (let round = 0; round < rounds; round++) {
      const arrived = provider.answerRequests(n);
      const sampling = sampler();
      const t0 = performance.now();
      const from = process.hrtime.bigint() / 1000n;
      const answers = Promise.allSettled(seats.map((s) => askOnce(s, HOLD_MS + 30_000)));
      await arrived;
      const window = `${from}-${process.hrtime.bigint() / 1000n}`;
      runs.push({ cpu: sampling.stop(), lastRequestMs: performance.now() - t0, window });
      await answers;
    }
  } finally {
    provider.setFirstTokenDelay(FIRST_TOKEN_MS);
    await closeSeats(seats);
  }
  return runs;
}

export interface BurstResult {
  overheads: number[];
  errors: number;
  samples: string[];
  /** CPU of each process over the counted rounds (not the warm-up) */
  cpu: CpuSplit | null;
  /** answers completed in the counted rounds */
  answers: number;
  /** DELTA frames the subscribers received in the counted rounds */
  deltaFrames: number;
  /** the round not counted (the first; in fresh processes, the cold one): its overheads and CPU */
  first: { overheads: number[]; cpu: CpuSplit | null };
}

function deltaFrames(seats: ChatSeat[]): number {
  let n = 0;
  for (const s of seats) for (const e of s.events.events) if (e.type === "DELTA") n++;
  return n;
}

/** Tokens the fake model streams per answer (its default tokenizer: 3 characters each) */
export const TOKENS_PER_ANSWER = Math.ceil(ANSWER.length / 3);

if (!isMainThread && workerData?.role === "cluster-provider") {
  const { startFakeOpenAI } = await import("../api/src/testing/fake-openai");
  const fake = await startFakeOpenAI({
    reply: (req) => (req.stream ? ANSWER : "Klagefrist"),
    firstTokenDelayMs: FIRST_TOKEN_MS,
    tokenDelayMs: TOKEN_MS,
  });
  const { startLoopStats } = await import("./cluster/loop-stats.mjs");
  // started by the first request for it (--loop-stats): its 5 ms timer runs only then
  let loop: ReturnType<typeof startLoopStats> | null = null;
  parentPort?.on("message", (m: { firstTokenDelayMs?: number; loopStats?: boolean }) => {
    if (typeof m.firstTokenDelayMs === "number")
      fake.setBehaviour({ firstTokenDelayMs: m.firstTokenDelayMs });
    if (m.loopStats) {
      loop ??= startLoopStats();
      parentPort?.postMessage({ loopStats: loop.snapshot() });
    }
  });
  // each streamed (answer) request as it arrives: the moment the pre-model path of a question ends
  let seen = 0;
  let streamed = 0;
  setInterval(() => {
    const before = streamed;
    for (; seen < fake.requests.length; seen++) {
      const body = fake.requests[seen].body as { stream?: boolean } | null;
      if (body?.stream) streamed++;
    }
    if (streamed !== before) parentPort?.postMessage({ streamed });
  }, 1).unref();
  parentPort?.postMessage({ baseURL: fake.baseURL });
}
