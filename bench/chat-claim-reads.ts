/**
 * CPU of a send's two reads in its first round trip (chat.send-claim.ts): the session's "last used" update
 * (ownSession with touch) and the history read (loadHistoryTree), through mongoose (filter and update cast with
 * the schema) vs through the driver, on the embedded store in this process.
 *   npx tsx bench/chat-claim-reads.ts [--sends 400] [--rounds 3]
 * Prints CPU µs per send (the store runs in this process: its share is in both figures, the difference is the app's).
 */
import mongoose from "mongoose";
import { HISTORY_FIELDS, loadHistoryTree } from "../api/src/chat/chat.history";
import { ChatMessageModel, ChatSessionModel } from "../api/src/chat/chat.model";
import { ownSession } from "../api/src/chat/chat.ownership";
import { openTestStore } from "../api/src/chat/chat.test-helpers";
import { newTurn } from "../api/src/chat/chat.turn";
import { arg } from "./load";

const SENDS = arg("sends", 400);
const ROUNDS = arg("rounds", 3);

interface Seat {
  userId: string;
  sessionId: string;
}

/** `n` sessions of their own users, each with two earlier turns */
async function seats(n: number): Promise<Seat[]> {
  const out: Seat[] = [];
  const sessions: object[] = [];
  const messages: object[] = [];
  for (let i = 0; i < n; i++) {
    const userId = new mongoose.Types.ObjectId();
    const sessionId = `bench-${i}-${userId}`;
    const now = new Date();
    sessions.push({
      userId,
      sessionId,
      title: "t",
      titled: true,
      hasMessages: true,
      createdAt: now,
      lastUpdated: now,
    });
    for (let t = 0; t < 2; t++) {
      const { question, answer } = newTurn({
        userId,
        sessionId,
        content: "Hvad er klagefristen?",
        now: new Date(now.getTime() + t * 10),
        mode: "llm",
        worker: "w",
      });
      messages.push(question, { ...answer, status: "complete", content: "Fire uger [1]." });
    }
    out.push({ userId: String(userId), sessionId });
  }
  await ChatSessionModel.collection.insertMany(sessions);
  await ChatMessageModel.collection.insertMany(messages);
  return out;
}

/** CPU µs per send of each way, the two alternating send by send (the machine's load drifts alike for both) */
async function cpuPerSend(ways: Array<(s: Seat) => Promise<unknown>>): Promise<number[]> {
  const all = await seats(SENDS * ways.length);
  const used = ways.map(() => 0);
  for (let i = 0; i < all.length; i++) {
    const w = i % ways.length;
    const before = process.cpuUsage();
    await ways[w](all[i]);
    const d = process.cpuUsage(before);
    used[w] += d.user + d.system;
  }
  return used.map((u) => u / SENDS);
}

/** the two reads as they were: mongoose queries with lean() */
const viaMongoose = (s: Seat) => {
  const userId = new mongoose.Types.ObjectId(s.userId);
  return Promise.all([
    ChatSessionModel.findOneAndUpdate(
      { sessionId: s.sessionId, userId },
      { $set: { lastUpdated: new Date(), hasMessages: true, activeLeafId: new mongoose.Types.ObjectId() } },
      { returnDocument: "before" },
    ).lean(),
    ChatMessageModel.find({ sessionId: s.sessionId, userId }, HISTORY_FIELDS).lean(),
  ]);
};

/** as the send path does them now */
const viaDriver = (s: Seat) =>
  Promise.all([
    ownSession(s.userId, s.sessionId, { touch: new Date(), leaf: new mongoose.Types.ObjectId() }),
    loadHistoryTree(s.sessionId, s.userId),
  ]);

const store = await openTestStore();
try {
  await cpuPerSend([viaMongoose, viaDriver]); // warm-up (JIT)
  for (let r = 0; r < ROUNDS; r++) {
    const [m, d] = await cpuPerSend([viaMongoose, viaDriver]);
    console.log(
      `mongoose ${m.toFixed(0)} µs/send   driver ${d.toFixed(0)} µs/send   (${SENDS} sends each, store in-process)`,
    );
  }
} finally {
  await store.close();
}
