/**
 * CPU of an answer's final write (chat.runner.ts): through mongoose (the update cast with the schema) vs through
 * the driver with answerOutcome's $set (chat.turn.ts), on the embedded store in this process.
 *   npx tsx bench/chat-final-write.ts [--writes 400] [--rounds 3]
 * Prints the app side's CPU µs per write (the store runs in this process too: its share is in both figures).
 */
import mongoose from "mongoose";
import type { AnswerResult } from "../api/src/chat/answer";
import { ChatMessageModel } from "../api/src/chat/chat.model";
import { openTestStore } from "../api/src/chat/chat.test-helpers";
import { answerOutcome, newTurn } from "../api/src/chat/chat.turn";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const WRITES = arg("writes", 400);
const ROUNDS = arg("rounds", 3);

const citation = (n: number) => ({
  number: n,
  articleId: `article-${n}`,
  title: `Artikel ${n}`,
  headingPath: ["Afsnit", `Underafsnit ${n}`],
  passage: "Klagefristen er fire uger fra den dag, afgørelsen er modtaget. ".repeat(4),
  updatedAt: new Date("2026-01-02T03:04:05.000Z"),
});
const result: AnswerResult = {
  content: `${"Klagefristen er fire uger fra modtagelsen. ".repeat(3)}[1] [2] [3]`,
  citations: [citation(1), citation(2), citation(3)],
  usedNumbers: [1, 2, 3],
  mode: "llm",
  status: "complete",
  knowledgeGap: false,
  freshnessWarnings: [],
  retrievalQuery: "Hvad er klagefristen?",
  sources: [],
};
const followUps = ["Hvornår starter fristen?", "Kan fristen forlænges?", "Hvem afgør klagen?"];

async function pending(n: number): Promise<mongoose.Types.ObjectId[]> {
  const ids: mongoose.Types.ObjectId[] = [];
  const docs: object[] = [];
  for (let i = 0; i < n; i++) {
    const { question, answer } = newTurn({
      userId: new mongoose.Types.ObjectId(),
      sessionId: `s-${i}`,
      content: "Hvad er klagefristen?",
      now: new Date(),
      mode: "llm",
      worker: "w",
    });
    docs.push(question, answer);
    ids.push(answer._id);
  }
  await ChatMessageModel.collection.insertMany(docs);
  return ids;
}

async function cpuPerWrite(write: (id: mongoose.Types.ObjectId) => Promise<unknown>): Promise<number> {
  const ids = await pending(WRITES);
  const before = process.cpuUsage();
  for (const id of ids) await write(id);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / WRITES;
}

const viaMongoose = (id: mongoose.Types.ObjectId) =>
  ChatMessageModel.findOneAndUpdate(
    { _id: id },
    {
      $set: {
        followUps,
        content: result.content,
        status: result.status,
        citations: result.citations.map((c) => ({
          ...c,
          url: c.url ?? null,
          updatedAt: c.updatedAt ?? null,
        })),
        usedNumbers: result.usedNumbers,
        mode: result.mode,
        error: null,
        knowledgeGap: result.knowledgeGap,
        freshnessWarnings: result.freshnessWarnings,
        worker: null,
        heartbeatAt: new Date(),
      },
    },
    { returnDocument: "after" },
  ).lean();
const viaDriver = (id: mongoose.Types.ObjectId) =>
  ChatMessageModel.collection.findOneAndUpdate(
    { _id: id },
    { $set: answerOutcome(result, followUps, new Date()) },
    { returnDocument: "after" },
  );

const store = await openTestStore();
try {
  await cpuPerWrite(viaMongoose); // warm-up of both
  await cpuPerWrite(viaDriver);
  for (let r = 0; r < ROUNDS; r++) {
    const m = await cpuPerWrite(viaMongoose);
    const d = await cpuPerWrite(viaDriver);
    console.log(
      `round ${r + 1}: mongoose ${m.toFixed(0)} µs CPU per write, driver ${d.toFixed(0)} µs (${(m - d).toFixed(0)} µs less)`,
    );
  }
} finally {
  await store.close();
}
