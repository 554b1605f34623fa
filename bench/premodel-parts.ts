/**
 * CPU of the parts stop perf16 changed on a chat question's way to its model request, old way vs new, alternating
 * question by question in this process (the machine's load drifts alike for both; bench/send-path-parts.ts is
 * stop 26's of the same kind):
 *   npx tsx bench/premodel-parts.ts [--ops 2000] [--rounds 3]
 * - user id: the chat resolver's id of the signed-in user through a user document hydrated from the auth cache's
 *   lean copy (before) vs the cached identity's _id;
 * - passages: 10 retrieval results (the question alone and with its history, 5 each) copied by rest-spread and
 *   spread, then given their gate fields (before) vs copied field by field;
 * - earlier answers: 3 earlier answers of ~1,500 characters cleaned of their markers at every question (before)
 *   vs kept once cleaned;
 * - follow-up choice: chooseRetrieval over 3 + 3 passages of ~2,000 characters with a question and two earlier
 *   turns: each word stemmed again and each passage's word list scanned per stem (before) vs stems kept and a
 *   passage's words read as one text.
 */
import { stemmer as danishStemmer } from "@orama/stemmers/danish";
import mongoose from "mongoose";
import { cleanCitations } from "../api/src/chat/answer/citations";
import {
  analysed,
  foldedWords,
  holds,
  MIN_STEM_LENGTH,
  MIN_WORD_LENGTH,
  STEM_LENGTH,
} from "../api/src/chat/answer/evidence";
import { earlierAnswerText, selectHistory } from "../api/src/chat/answer/prompt";
import { chooseRetrieval, looksLikeFollowUp } from "../api/src/chat/answer/retrieval-query";
import type { HistoryTurn, Passage } from "../api/src/chat/answer/types";
import { fold } from "../api/src/search/search.analyzer";
import { gateFields } from "../api/src/search/search.coverage";
import { retrievedPassage } from "../api/src/search/search.stored";
import type { StoredPassage } from "../api/src/search/search.vectors";
import { UserModel } from "../api/src/users/user.model";
import { arg } from "./load";

const OPS = arg("ops", 2000);
const ROUNDS = arg("rounds", 3);

/** CPU µs per operation of each way, alternating */
function cpuPer(ways: Array<(i: number) => unknown>, ops = OPS): number[] {
  const used = ways.map(() => 0);
  for (let i = 0; i < ops * ways.length; i++) {
    const w = i % ways.length;
    const before = process.cpuUsage();
    ways[w](i);
    const d = process.cpuUsage(before);
    used[w] += d.user + d.system;
  }
  return used.map((u) => u / ops);
}

// --- user id ---
const lean: Record<string, unknown> = {
  _id: new mongoose.Types.ObjectId(),
  email: "anna@example.dk",
  username: "anna",
  usernameKey: "anna",
  passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$abc$def",
  name: "Anna",
  role: "user",
  verified: true,
  verificationToken: null,
  verificationTokenExpires: null,
  passwordResetToken: null,
  passwordResetTokenExpires: null,
  lastLogin: new Date(),
  createdAt: new Date(),
  updatedAt: new Date(),
  __v: 0,
};
const identity = { _id: lean._id, name: lean.name, email: lean.email, role: lean.role };
function hydratedId(): string {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(lean)) {
    const value = lean[key];
    copy[key] = value instanceof Date ? new Date(value.getTime()) : value;
  }
  return String(UserModel.hydrate(copy)._id);
}

// --- passages ---
const sentence =
  "Medarbejdere optjener 2,08 feriedage pr. måned, og ferien kan overføres efter aftale med lederen (§ 21). ";
const stored: StoredPassage[] = Array.from({ length: 10 }, (_, i) => ({
  id: `a${i}#0`,
  articleId: `a${i}`,
  title: `Ferieregler ${i}`,
  category: "hr",
  headingPath: ["Ferie", `Afsnit ${i}`],
  text: sentence.repeat(19),
  position: 0,
  wordCount: 300,
  embedKey: `k${i}`,
  vector: undefined,
}));
const cover = { coverage: 0.6, matched: 3.1, words: 2, ofWords: 3, uncovered: 0.4, concepts: [] };
function retrievedBefore(p: StoredPassage, score: number, lexical?: number) {
  const { embedKey: _k, vector: _v, ...passage } = p;
  return {
    ...passage,
    headingPath: [...passage.headingPath],
    score,
    ...(lexical !== undefined ? { lexicalScore: lexical } : {}),
  };
}
const present = (copy: (p: StoredPassage, score: number, lexical?: number) => object) => () => {
  let n = 0;
  for (const p of stored) {
    const out = copy(p, 0.9, 3.2) as { articleRank?: number };
    Object.assign(out, gateFields(cover as never));
    out.articleRank = 1;
    n += out.articleRank;
  }
  return n;
};

// --- earlier answers ---
const answers = [0, 1, 2].map(
  (i) => `${`Du optjener 2,08 feriedage om måneden [${i + 1}], og ferien kan overføres [2]. `.repeat(18)}`,
);
const history: HistoryTurn[] = answers.flatMap((a, i) => [
  { role: "user" as const, content: `Hvordan optjener jeg ferie ${i}?` },
  { role: "assistant" as const, content: a },
]);
const cleanBefore = () =>
  selectHistory(history, "Og deltid?").map((t) =>
    t.role === "assistant" ? cleanCitations(t.content, new Set()).trim() : t.content,
  );
const cleanAfter = () =>
  selectHistory(history, "Og deltid?").map((t) =>
    t.role === "assistant" ? earlierAnswerText(t.content) : t.content,
  );

// --- follow-up choice: chooseRetrieval and questionEvidence as they were (retrieval-query.ts, evidence.ts at a557cc1)
function stemBefore(word: string): string {
  const snowball = fold(danishStemmer(word.toLowerCase())).length;
  return fold(word).slice(0, Math.min(STEM_LENGTH, word.length - 1, Math.max(MIN_STEM_LENGTH, snowball)));
}
const ASKING = new Set(
  ["hvad", "hvem", "hvor", "hvordan", "hvilke", "skal", "ikke", "også", "efter"].map(stemBefore),
);
const WORDS = /[\p{L}\p{N}]+/gu;
function weightsBefore(question: string, passages: readonly { text: string }[]): Map<string, number> {
  const stems = new Set(
    (question.match(WORDS) ?? [])
      .filter((w) => w.length >= MIN_WORD_LENGTH)
      .map(stemBefore)
      .filter((s) => !ASKING.has(s)),
  );
  const texts = passages.map((p) => analysed(p.text).all);
  const weights = new Map<string, number>();
  for (const s of stems) {
    const df = texts.filter((words) => holds(words, s)).length;
    weights.set(s, Math.log(1 + (texts.length + 1) / (df + 1)));
  }
  return weights;
}
const wordsOfPassageBefore = (p: Passage) => [
  ...analysed(p.text).all,
  ...foldedWords([p.title, ...p.headingPath].join(" ")),
];
function coverageBefore(words: readonly string[], weights: ReadonlyMap<string, number>): number {
  let total = 0;
  let covered = 0;
  for (const [stem, w] of weights) {
    total += w;
    if (holds(words, stem)) covered += w;
  }
  return total > 0 ? covered / total : 0;
}
function chooseBefore(question: string, turns: HistoryTurn[], alone: Passage[], combined: Passage[]): number {
  looksLikeFollowUp(question);
  const candidates = [...alone.slice(0, 3), ...combined.slice(0, 3)];
  const own = weightsBefore(question, candidates);
  const words = new Map(candidates.map((p) => [p, wordsOfPassageBefore(p)]));
  const passageWords = (p: Passage) => words.get(p) ?? [];
  const earlier = new Map<string, number>();
  const previous = selectHistory(turns, question)
    .filter((t) => t.role === "user")
    .map((t) => t.content)
    .join("\n");
  for (const stem of weightsBefore(previous, []).keys())
    if (!own.has(stem) && candidates.some((p) => holds(passageWords(p), stem))) earlier.set(stem, 1);
  let best = 0;
  for (const p of candidates)
    best = Math.max(best, coverageBefore(passageWords(p), own), coverageBefore(passageWords(p), earlier));
  return best;
}
const texts = [
  "Ferie optjenes med 2,08 dage pr. måned. Ferien kan holdes fra den 1. september. Overførsel af ferie kræver en skriftlig aftale med lederen inden den 31. december.",
  "Sygdom skal meldes til lederen inden kl. 9 på første sygedag. Ved længere sygdom holdes en samtale efter fire uger.",
  "Deltidsansatte optjener ferie forholdsmæssigt efter deres ugentlige arbejdstid. Feriefridage følger samme regel.",
];
const passages: Passage[] = Array.from({ length: 6 }, (_, i) => ({
  articleId: `a${i}`,
  title: `Ferieregler ${i}`,
  headingPath: ["Ferie", `Afsnit ${i}`],
  text: `${texts[i % 3]} `.repeat(8),
  score: 0.9,
}));
const question = "Gælder reglerne om overførsel af ferie også for deltidsansatte medarbejdere?";
const turns: HistoryTurn[] = [
  { role: "user", content: "Hvor mange feriedage optjener jeg om måneden?" },
  { role: "assistant", content: "Du optjener 2,08 dage om måneden." },
  { role: "user", content: "Hvornår kan ferien holdes, og hvordan overfører jeg den?" },
  { role: "assistant", content: "Fra den 1. september; overførsel kræver en aftale." },
];

for (let r = 0; r <= ROUNDS; r++) {
  const [ub, ua] = cpuPer([hydratedId, () => String(identity._id)]);
  const [pb, pa] = cpuPer([present(retrievedBefore), present(retrievedPassage)]);
  const [cb, ca] = cpuPer([cleanBefore, cleanAfter]);
  const [fb, fa] = cpuPer([
    () => chooseBefore(question, turns, passages.slice(0, 3), passages.slice(3)),
    () => chooseRetrieval(question, turns, passages.slice(0, 3), passages.slice(3)),
  ]);
  if (r === 0) continue; // warm-up (JIT)
  const f = (x: number) => x.toFixed(1).padStart(6);
  console.log(
    `round ${r}: user id ${f(ub)} → ${f(ua)} µs   passages ${f(pb)} → ${f(pa)} µs   earlier answers ${f(cb)} → ${f(ca)} µs   follow-up choice ${f(fb)} → ${f(fa)} µs   per question (${OPS} each); sum ${f(ub + pb + cb + fb)} → ${f(ua + pa + ca + fa)} µs`,
  );
}
