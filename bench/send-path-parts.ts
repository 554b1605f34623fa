/**
 * CPU of the parts stop 27 (chat-cpu5) changed on a question's way to its model request, old way vs new,
 * alternating operation by operation in this process (the machine's load drifts alike for both):
 *   npx tsx bench/send-path-parts.ts [--ops 2000] [--rounds 3]
 * - store calls: the session touch, history read and turn insert through mongoose's collection wrapper and a
 *   new driver Collection for the slot upsert (before) vs the driver collections made once (chat.store.ts); the
 *   embedded store runs in this process, so its share is in both figures and the difference is the app's;
 * - prompt sources: 6 passages of ~2,000 characters (one with an HTML tag) formatted as before (HTML stripped each time) vs through
 *   the kept bodies (a hit; a miss costs the old way plus its key);
 * - nonces: randomBytes per value vs the pooled randomHex (a delimiter id and a slot lease per question);
 * - ETag: the SHA-1 ETag Express computed for each GraphQL response (now not made).
 */
import { createHash, randomBytes } from "node:crypto";
import mongoose from "mongoose";
import { buildSystemPrompt, numberSources } from "../api/src/chat/answer/prompt";
import { formatDate } from "../api/src/chat/answer/texts";
import type { NumberedSource, Passage } from "../api/src/chat/answer/types";
import { ChatMessageModel, ChatSessionModel } from "../api/src/chat/chat.model";
import { modelCollection, storeCollection } from "../api/src/chat/chat.store";
import { openTestStore } from "../api/src/chat/chat.test-helpers";
import { newTurn } from "../api/src/chat/chat.turn";
import { randomHex } from "../api/src/chat/random-hex";
import { stripHtml } from "../api/src/markdown/sanitize";
import { arg } from "./load";

const OPS = arg("ops", 2000);
const ROUNDS = arg("rounds", 3);

/** CPU µs per operation of each way, alternating */
async function cpuPer(ways: Array<(i: number) => unknown>, ops = OPS): Promise<number[]> {
  const used = ways.map(() => 0);
  for (let i = 0; i < ops * ways.length; i++) {
    const w = i % ways.length;
    const before = process.cpuUsage();
    await ways[w](i);
    const d = process.cpuUsage(before);
    used[w] += d.user + d.system;
  }
  return used.map((u) => u / ops);
}

// --- prompt sources: the formatting before (prompt.ts at 557efd2) ---
const neutralise = (text: string) => stripHtml(text).replace(/<(\/?\s*kilde)/gi, "‹$1");
const oneLine = (text: string) => neutralise(text).replace(/\s+/g, " ").trim();
function formatSourcesBefore(sources: NumberedSource[], delimiterId: string): string {
  return sources
    .map((s) => {
      const lines = [`<kilde nr="${s.number}" id="${delimiterId}">`, `Titel: ${oneLine(s.title)}`];
      if (s.headingPath.length > 0) lines.push(`Afsnit: ${s.headingPath.map(oneLine).join(" › ")}`);
      if (s.updatedAt) lines.push(`Sidst opdateret: ${formatDate(s.updatedAt, "da")}`);
      lines.push("Tekst:", neutralise(s.text).trim(), `</kilde nr="${s.number}" id="${delimiterId}">`);
      return lines.join("\n");
    })
    .join("\n\n");
}
const sentence =
  "Medarbejdere optjener 2,08 feriedage pr. måned, og ferien kan overføres efter aftale med lederen (§ 21). ";
const passages: Passage[] = Array.from({ length: 6 }, (_, i) => ({
  articleId: `a${i}`,
  title: `Ferieregler ${i}`,
  headingPath: ["Ferie", `Afsnit ${i}`],
  // one passage with markup (stripped through the Markdown parser), as article text rarely has any
  text: i === 0 ? `${sentence.repeat(18)}Se <b>bilag</b>.` : sentence.repeat(19),
  score: 0.9,
  updatedAt: new Date("2025-03-01T12:00:00Z"),
}));
// a fresh copy per question, as retrieval returns them
const sourcesOf = () => numberSources(passages.map((p) => ({ ...p, text: `${p.text} ` })));

// --- store calls ---
interface Seat {
  userId: mongoose.Types.ObjectId;
  sessionId: string;
}
async function seats(n: number): Promise<Seat[]> {
  const out: Seat[] = [];
  const sessions: object[] = [];
  for (let i = 0; i < n; i++) {
    const userId = new mongoose.Types.ObjectId();
    const sessionId = `parts-${i}-${userId}`;
    sessions.push({
      userId,
      sessionId,
      title: "t",
      titled: true,
      hasMessages: true,
      lastUpdated: new Date(),
    });
    out.push({ userId, sessionId });
  }
  await modelCollection(ChatSessionModel).insertMany(sessions);
  return out;
}
const turn = (s: Seat) =>
  newTurn({
    userId: s.userId,
    sessionId: s.sessionId,
    content: "Hvad er fristen?",
    now: new Date(),
    mode: "llm",
    worker: "w",
  });
type Coll = {
  findOneAndUpdate(f: object, u: object, o: object): Promise<unknown>;
  find(f: object, o: object): { toArray(): Promise<unknown> };
  insertMany(d: object[], o: object): Promise<unknown>;
  updateOne(f: object, u: object, o: object): Promise<unknown>;
};
function storeCalls(sessions: () => Coll, messages: () => Coll, slots: () => Coll, all: Seat[]) {
  return async (i: number) => {
    const s = all[i];
    const { question, answer } = turn(s);
    const now = new Date();
    await Promise.all([
      slots().updateOne(
        { _id: `${s.userId}:0`, exp: { $lt: now } },
        { $set: { lease: "x", worker: "w", exp: new Date(now.getTime() + 15_000) } },
        { upsert: true },
      ),
      sessions().findOneAndUpdate(
        { sessionId: s.sessionId, userId: s.userId },
        { $set: { lastUpdated: now, hasMessages: true, activeLeafId: answer._id } },
        { returnDocument: "before" },
      ),
      messages()
        .find({ sessionId: s.sessionId, userId: s.userId }, { projection: { content: 1 } })
        .toArray(),
    ]);
    await messages().insertMany([question, answer], { ordered: true });
  };
}

const store = await openTestStore();
try {
  const all = await seats(OPS * 2 * (ROUNDS + 1));
  let offset = 0;
  const db = () => mongoose.connection.db as mongoose.mongo.Db;
  const before = storeCalls(
    () => ChatSessionModel.collection as unknown as Coll,
    () => ChatMessageModel.collection as unknown as Coll,
    () => db().collection("chat_answer_slots") as unknown as Coll,
    all,
  );
  const after = storeCalls(
    () => modelCollection(ChatSessionModel) as unknown as Coll,
    () => modelCollection(ChatMessageModel) as unknown as Coll,
    () => storeCollection("chat_answer_slots") as unknown as Coll,
    all,
  );
  const body = JSON.stringify({
    data: { sendMessage: { session: { id: "x", title: "y" }, text: "z".repeat(900) } },
  });
  for (let r = 0; r <= ROUNDS; r++) {
    const at = offset;
    offset += OPS * 2;
    const [sb, sa] = await cpuPer([(i) => before(at + i), (i) => after(at + i)]);
    const [pb, pa] = await cpuPer([
      () =>
        buildSystemPrompt({ sources: [], language: "da", delimiterId: "x" }) +
        formatSourcesBefore(sourcesOf(), "x"),
      () => buildSystemPrompt({ sources: sourcesOf(), language: "da", delimiterId: "x" }),
    ]);
    const [rb, ra] = await cpuPer([
      () => randomBytes(6).toString("hex") + randomBytes(8).toString("hex"),
      () => randomHex(6) + randomHex(8),
    ]);
    // what the etag package does for Express (a weak ETag: length and SHA-1 of the body)
    const [eb] = await cpuPer([
      () =>
        `W/"${Buffer.byteLength(body).toString(16)}-${createHash("sha1").update(body, "utf8").digest("base64").slice(0, 27)}"`,
    ]);
    if (r === 0) continue; // warm-up (JIT)
    const f = (x: number) => x.toFixed(1).padStart(6);
    console.log(
      `round ${r}: store calls ${f(sb)} → ${f(sa)} µs   prompt sources ${f(pb)} → ${f(pa)} µs   nonces ${f(rb)} → ${f(ra)} µs   ETag ${f(eb)} → 0 µs   per question (${OPS} each)`,
    );
  }
} finally {
  await store.close();
}
