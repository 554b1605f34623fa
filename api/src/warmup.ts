/**
 * The warm-up a fresh API process runs before it reports ready (start.ts: after listening with /readyz 503
 * "warming" meanwhile, or before listening with WARMUP=first), so the first users a balancer sends it are not
 * served by cold code (issue 16; stop 31 measured a fresh process spending 15–42 % more CPU per action in
 * its first ~15 s, and the 400-user mix's chats sent in the first 6.5 s at p95 113 ms against 27 ms after 10 s).
 *
 * What it exercises, in WARMUP_LANES concurrent lanes (the first round in one), round after round until
 * WARMUP_BUDGET_MS (wall), WARMUP_CPU_BUDGET_MS or WARMUP_MAX_ROUNDS, whichever first (a round is never cut):
 * - GraphQL through Apollo (parse, validate, the complexity and size plugins, execute, error formatting, the
 *   result's JSON) for the operations the web app and the clients send most, under an anonymous internal context
 *   (no user, no request: it cannot be reached from outside). `me` executes fully (null); the signed-in ones stop
 *   at the @Authorized check, so no resolver runs as anybody;
 * - the services those resolvers call, as nobody: search (a null user records no recent search), the chat's
 *   retrieval and answer composing on built-in questions: retrieval-only, and with a model configured also the
 *   model's path through the real LLM client over a canned in-process stream (warmup.model.ts; no model call,
 *   nothing stored), the knowledge list, and a session list of an id no user has;
 * - the driver's and the store's read and write paths with writes that match no document (no change, no change
 *   event); the lanes' concurrent round trips open pooled connections up to WARMUP_LANES (1–4 new ones in
 *   bench:cluster's processes; the pool already holds start-up's);
 * - the lazy search data (the dictionary, the thesaurus, the lexicon) that the first query needing them loads.
 * Nothing is written, logged as activity, rate-limited, mailed or sent to a model (api/src/warmup.test.ts).
 *
 * The first pass over these costs 10–15× a warm one (report.laneCpuMs: ~100 ms CPU, then ~18, then 5–10 ms).
 * WARMUP=0 turns it off (tests that start many servers; config.ts); on by default except NODE_ENV=test.
 */
import type { ApolloServer } from "@apollo/server";
import mongoose from "mongoose";
import { answerQuestion } from "./chat/answer";
import { ChatMessageModel, ChatSessionModel } from "./chat/chat.model";
import type { GraphQLContext } from "./graphql/context";
import type { LlmClient } from "./llm";
import type { Services } from "./services";
import { UserModel } from "./users/user.model";
import { warmupModel } from "./warmup.model";
import { WARMUP_QUESTIONS, WARMUP_SEARCHES } from "./warmup.queries";

/** wall-clock budget of the warm-up: stops starting rounds after this (a loaded machine gets fewer rounds) */
export const WARMUP_BUDGET_MS = 1_500;
/**
 * CPU budget of the process during the warm-up (its GC and I/O threads count): stops starting rounds after
 * this. A quiet machine otherwise spent ~1.8 s CPU on 40 rounds in 1.3 s (bench:cluster, 22:05).
 */
export const WARMUP_CPU_BUDGET_MS = 1_500;
/** at most this many rounds (a quiet machine: enough for the optimizing JIT to pick the hot functions up) */
export const WARMUP_MAX_ROUNDS = 40;
/** concurrent lanes: each holds one pooled connection at a time, so the pool opens this many sockets */
export const WARMUP_LANES = 8;

/** The operations the web app and the clients send most (their text as they send it where it is fixed). */
const OPERATIONS: Array<{ query: string; variables?: Record<string, unknown> }> = [
  { query: "query Me { me { id email name firstName isAdmin role } }" },
  {
    query: "query($q: String!) { searchKnowledge(query: $q) { total hits { article { id title } } } }",
    variables: { q: "klagefrist" },
  },
  {
    query: "query($id: ID!) { knowledgeArticle(id: $id) { id title content category } }",
    variables: { id: "000000000000000000000000" },
  },
  { query: "query Sessions { sessions { id sessionId title lastUpdated } }" },
  { query: "query Categories { knowledgeCategories { name count } }" },
  {
    query: `mutation SendMessage($sessionId: ID!, $content: String!) { sendMessage(sessionId: $sessionId, content: $content) {
    session { sessionId title } userMessage { id content } assistantMessage { id content status } } }`,
    variables: { sessionId: "000000000000000000000000", content: WARMUP_QUESTIONS[0] },
  },
];

export interface WarmupReport {
  rounds: number;
  /** operations and service calls run */
  calls: number;
  /** wall ms and this process's CPU ms spent */
  ms: number;
  cpuMs: number;
  /** CPU ms per lane in each round: how much dearer the first calls are than later ones (what was cold) */
  laneCpuMs: number[];
  /** wall ms of each round */
  roundMs: number[];
  /** driver connections opened during the warm-up */
  connectionsOpened: number;
  /** GraphQL operations whose errors were not the expected UNAUTHENTICATED (a changed schema: fix OPERATIONS) */
  unexpected: string[];
}

const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** The anonymous internal context: no user, no request (never built for an outside request). */
function internalContext(services: Services): GraphQLContext {
  return { services, auth: null, user: null, meta: { ip: undefined, userAgent: "warmup" } };
}

async function graphqlOnce(
  apollo: ApolloServer<GraphQLContext>,
  services: Services,
  op: (typeof OPERATIONS)[number],
  unexpected: string[],
): Promise<void> {
  const res = await apollo.executeOperation(
    { query: op.query, variables: op.variables },
    { contextValue: internalContext(services) },
  );
  if (res.body.kind !== "single") return;
  const result = res.body.singleResult;
  JSON.stringify(result);
  for (const e of result.errors ?? []) {
    if (e.extensions?.code !== "UNAUTHENTICATED" && unexpected.length < 10) unexpected.push(e.message);
  }
}

/** One lane's round: every kind of work once, the lane's own item of each list. */
async function laneRound(
  lane: number,
  round: number,
  apollo: ApolloServer<GraphQLContext>,
  services: Services,
  unexpected: string[],
  llm: LlmClient | null,
): Promise<number> {
  const i = lane + round * WARMUP_LANES;
  const nobody = new mongoose.Types.ObjectId();
  const question = WARMUP_QUESTIONS[i % WARMUP_QUESTIONS.length];
  const retrieve = (q: string, k: number) => services.knowledge.chatPassages(q, k);
  await Promise.all([
    graphqlOnce(apollo, services, OPERATIONS[i % OPERATIONS.length], unexpected),
    services.knowledge.search(null, { query: WARMUP_SEARCHES[i % WARMUP_SEARCHES.length] }),
    answerQuestion({ question, history: [], retrieve, language: i % 2 ? "en" : "da" }),
    llm
      ? answerQuestion({ question, history: [], retrieve, llm, onDelta: () => undefined }).then((a) => {
          if (a.status === "error" && unexpected.length < 10)
            unexpected.push(`model path: ${a.error?.message}`);
        })
      : null,
  ]);
  // reads and writes that match nothing: the driver's and the store's command paths, no change made
  await services.knowledge.articlesByCategory();
  await services.chat.listSessions(nobody.toHexString());
  await UserModel.findById(nobody).lean();
  await ChatSessionModel.updateOne({ _id: nobody }, { $set: { lastUpdated: new Date() } });
  await ChatMessageModel.bulkWrite([
    { updateOne: { filter: { _id: nobody }, update: { $set: { content: "" } } } },
  ]);
  return llm ? 8 : 7;
}

/**
 * Warm this process's hot paths (see the header) within WARMUP_BUDGET_MS; never throws (a failed warm-up only
 * leaves the process as cold as before).
 */
export async function warmUp(
  apollo: ApolloServer<GraphQLContext>,
  services: Services,
): Promise<WarmupReport> {
  const started = performance.now();
  const cpu0 = cpuNow();
  const client = mongoose.connection.getClient();
  let connectionsOpened = 0;
  const onConnection = () => {
    connectionsOpened++;
  };
  client.on("connectionCreated", onConnection);
  const unexpected: string[] = [];
  const llm = services.chat.mode === "llm" ? warmupModel(services.config.openaiModel ?? "warmup") : null;
  let rounds = 0;
  let calls = 0;
  const laneCpuMs: number[] = [];
  const roundMs: number[] = [];
  try {
    while (
      rounds < WARMUP_MAX_ROUNDS &&
      performance.now() - started < WARMUP_BUDGET_MS &&
      cpuNow() - cpu0 < WARMUP_CPU_BUDGET_MS
    ) {
      // the first round in one lane: it pays the lazy loads (search data, first queries) once, and a request
      // served meanwhile (WARMUP=1: after listening) waits behind one lane's work, not WARMUP_LANES
      const lanes = rounds === 0 ? 1 : WARMUP_LANES;
      const roundCpu = cpuNow();
      const roundStart = performance.now();
      const done = await Promise.all(
        Array.from({ length: lanes }, (_, lane) =>
          laneRound(lane, rounds, apollo, services, unexpected, llm),
        ),
      );
      calls += done.reduce((a, b) => a + b, 0);
      roundMs.push(Math.round(performance.now() - roundStart));
      laneCpuMs.push(Math.round(((cpuNow() - roundCpu) / lanes) * 10) / 10);
      rounds++;
    }
  } catch (err) {
    unexpected.push(err instanceof Error ? err.message : String(err));
  } finally {
    client.off("connectionCreated", onConnection);
  }
  return {
    rounds,
    calls,
    ms: Math.round(performance.now() - started),
    cpuMs: Math.round(cpuNow() - cpu0),
    laneCpuMs,
    roundMs,
    connectionsOpened,
    unexpected,
  };
}
