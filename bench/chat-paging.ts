/**
 * Opening a long chat session: the web's `messages` query (and REST GET /api/chat/messages) on a session of
 * N messages, through the whole server (in-process, in-memory embedded store). Prints the response's bytes, wall
 * time (p50 of RUNS, with the load average beside it: the machine is shared) and the process's CPU time per
 * request (server and client are this process, so it includes parsing the response).
 *   npx tsx bench/chat-paging.ts                  2,000 messages
 *   npx tsx bench/chat-paging.ts --messages 5000
 * Before/after: run the same file in a checkout of the commit before paging (it asks without before/limit, which
 * both answer: the whole branch before, the newest page after). "GraphQL/v+1" raises the session's placeVersion
 * before each request, so each reads every message's place again (the kept tree's miss, chat.place-cache.ts);
 * the CPU figure includes that update.
 * Last, a send's first read (the history it sends the model) in this process, both ways in one run: every message
 * with its text (before stop 29) and loadRecentHistory + historyFor (the newest messages only).
 */
import os from "node:os";
import mongoose from "mongoose";
import {
  branchHistory,
  HISTORY_FIELDS,
  type HistoryDoc,
  historyFor,
  loadRecentHistory,
} from "../api/src/chat/chat.history";
import { DEFAULT_CHAT_LIMITS } from "../api/src/chat/chat.limits";
import { loadProjectedTree } from "../api/src/chat/chat.pages";
import { placeTrees } from "../api/src/chat/chat.place-cache";
import { startTestApp } from "../api/src/testing/app";
import { createVerifiedUser } from "../api/src/testing/client";

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const MESSAGES = Number(argValue("--messages") ?? 2_000);
const RUNS = Number(argValue("--runs") ?? 15);
const ANSWER = "Sagen behandles efter de almindelige regler, og fristen regnes fra modtagelsen [1]. ".repeat(
  16,
);
const PASSAGE = "Et uddrag af artiklen, som svaret bygger på. ".repeat(8);

/** the chat screen's own query (web/src/features/chat/graphql/chat.operations.ts, without before/limit) */
const QUERY = `query ChatMessages($sessionId: ID!) { messages(sessionId: $sessionId) {
  id sessionId role content timestamp status replyTo mode knowledgeGap usedNumbers
  citations { number articleId title headingPath heading }
  freshnessWarnings { number articleId title updatedAt message }
  error { code message retryable } feedback { rating comment } parentId followUps
  scope { kind category articles { id title } }
  siblingIndex siblingCount siblingIds } }`;

const app = await startTestApp({ mail: "outbox" });
try {
  const { token, user } = await createVerifiedUser(app);
  const userId = new mongoose.Types.ObjectId(user.id);
  const sessionId = "bench-long-session";
  const t0 = Date.now() - MESSAGES * 60_000;
  const docs: Array<Record<string, unknown>> = [];
  let parent: mongoose.Types.ObjectId | null = null;
  for (let i = 0; i < MESSAGES; i++) {
    const _id = new mongoose.Types.ObjectId();
    const question = i % 2 === 0;
    docs.push({
      _id,
      userId,
      sessionId,
      role: question ? "user" : "assistant",
      content: question ? `Spørgsmål ${i}: hvordan håndterer vi sagen?` : `${ANSWER}${i}`,
      timestamp: new Date(t0 + i * 30_000),
      parentId: parent,
      ...(question
        ? {}
        : {
            replyTo: parent,
            status: "complete",
            mode: "llm",
            usedNumbers: [1, 2, 3],
            citations: [1, 2, 3, 4, 5].map((n) => ({
              number: n,
              articleId: `article-${n}`,
              title: `Artikel ${n}`,
              headingPath: ["Afsnit", "Underafsnit"],
              passage: PASSAGE,
            })),
            followUps: ["Hvad med fristen?", "Hvem afgør sagen?"],
          }),
    });
    parent = _id;
  }
  const db = mongoose.connection;
  for (let i = 0; i < docs.length; i += 1_000)
    await db.collection("chat_messages").insertMany(docs.slice(i, i + 1_000));
  const now = new Date();
  await db.collection("chat_sessions").insertOne({
    userId,
    sessionId,
    title: "Lang samtale",
    titled: true,
    hasMessages: true,
    activeLeafId: parent,
    createdAt: now,
    lastUpdated: now,
  });

  const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
  const graphql = () =>
    fetch(app.graphqlUrl, {
      method: "POST",
      headers,
      body: JSON.stringify({ query: QUERY, variables: { sessionId } }),
    });
  const restList = () => fetch(`${app.url}/api/chat/messages/${sessionId}`, { headers });

  async function measure(name: string, request: () => Promise<Response>, before?: () => Promise<unknown>) {
    // one warm-up (first query plans, JIT)
    await (await request()).text();
    const walls: number[] = [];
    let bytes = 0;
    let count = 0;
    const cpu0 = process.cpuUsage();
    for (let r = 0; r < RUNS; r++) {
      await before?.();
      const start = performance.now();
      const res = await request();
      const body = await res.text();
      walls.push(performance.now() - start);
      bytes = Buffer.byteLength(body);
      const parsed = JSON.parse(body);
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${body.slice(0, 300)}`);
      count = (Array.isArray(parsed) ? parsed : parsed.data.messages).length;
    }
    const cpu = process.cpuUsage(cpu0);
    walls.sort((a, b) => a - b);
    const p50 = walls[Math.floor(walls.length / 2)] as number;
    console.log(
      `${name.padEnd(10)} ${String(count).padStart(5)} messages  ${(bytes / 1024).toFixed(0).padStart(6)} KiB  ` +
        `p50 ${p50.toFixed(1).padStart(7)} ms  CPU ${((cpu.user + cpu.system) / 1000 / RUNS).toFixed(1).padStart(7)} ms/request`,
    );
  }

  console.log(
    `a session of ${MESSAGES} messages, ${RUNS} requests each; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  await measure("GraphQL", graphql);
  await measure("REST", restList);
  // every request after the session's placeVersion was raised (as another process's send does): the place tree
  // is read again (chat.place-cache.ts), as every request did before the cache
  const raise = () => db.collection("chat_sessions").updateOne({ sessionId }, { $inc: { placeVersion: 1 } });
  await measure("GraphQL/v+1", graphql, raise);
  // every request a first open in this process: no tree of the session kept
  await measure("GraphQL/1st", graphql, async () => placeTrees.clear());

  const limit = DEFAULT_CHAT_LIMITS.historyMessages;
  const uid = String(userId);
  async function measureRead(name: string, read: () => Promise<unknown>) {
    await read(); // warm-up
    const walls: number[] = [];
    const cpu0 = process.cpuUsage();
    for (let r = 0; r < RUNS; r++) {
      const start = performance.now();
      await read();
      walls.push(performance.now() - start);
    }
    const cpu = process.cpuUsage(cpu0);
    walls.sort((a, b) => a - b);
    console.log(
      `${name.padEnd(34)} p50 ${(walls[Math.floor(walls.length / 2)] as number).toFixed(1).padStart(7)} ms  ` +
        `CPU ${((cpu.user + cpu.system) / 1000 / RUNS).toFixed(1).padStart(7)} ms/send (app and store)`,
    );
  }
  await measureRead("send's history, every text (before)", async () => {
    const tree = await loadProjectedTree<HistoryDoc>(sessionId, uid, HISTORY_FIELDS);
    return branchHistory(tree, String(parent), limit);
  });
  await measureRead("send's history, newest texts (now)", async () => {
    const tree = await loadRecentHistory(sessionId, uid);
    return historyFor(tree, String(parent), limit, uid);
  });
  console.log(
    `load average after: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
} finally {
  await app.close();
}
