/**
 * The multi-turn answer bench: `npm run bench:answers -- --set followups` (bench/answers/questions-followups.json).
 *
 * Each conversation is asked in ONE chat session of a real ChatService (retrieval-only, over the app's knowledge
 * service), turn by turn: the earlier turns are answered for real, so the history the last turn sees is what a
 * user's session would hold. Only the last turn is scored, with the single-question scoring (score.ts): an
 * on-topic last turn (articles + answering sentences) for cited-correct, in-quote and wrongly declined; an
 * off-topic one for declined. Figures per class, for all conversations and per half (even ids calibrate, odd ids
 * are held out: their failures are never listed).
 *
 * Besides the answer, the bench records what the last turn was searched with (the retrieval queries the chat
 * made for it): "alone" (the question as asked) or "combined" (with the earlier user turns), for reading the
 * follow-up rule (chooseRetrieval in api/src/chat/answer/retrieval-query.ts).
 */
import fs from "node:fs";
import { ChatService } from "../../api/src/chat/chat.service";
import type { TestApp } from "../../api/src/testing/app";
import { isHeldOut, type OffTopicQuestion, type OnTopicQuestion, slugOf } from "./dataset";
import { type Observation, onTopicFailed, quotedText, scoreOffTopic, scoreOnTopic } from "./score";

export const CLASSES = [
  "follow-up",
  "unrelated-on-topic",
  "unrelated-off-topic",
  "expletive-on-topic",
  "expletive-off-topic",
] as const;
export type ConversationClass = (typeof CLASSES)[number];

/** An off-topic class: its last turn must be declined ("not in the knowledge base"). */
export const OFF_TOPIC_CLASSES: readonly ConversationClass[] = ["unrelated-off-topic", "expletive-off-topic"];

export interface Conversation {
  id: string;
  class: ConversationClass;
  /** the user's questions in order; the last one is scored */
  turns: string[];
  /** on-topic classes: the articles that answer the last turn (the first is the main one) */
  articles?: string[];
  /** on-topic classes: sentences that answer the last turn, exact substrings of `articles` */
  answers?: string[];
}

export interface ConversationSet {
  about?: string;
  conversations: Conversation[];
}

/** at most this many turns per conversation (a session's history is bounded anyway) */
export const MAX_TURNS = 4;

export function isMultiTurnFile(file: string): boolean {
  if (!fs.existsSync(file)) return false;
  const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<ConversationSet>;
  return Array.isArray(parsed.conversations);
}

export function readConversations(file: string): ConversationSet {
  return JSON.parse(fs.readFileSync(file, "utf8")) as ConversationSet;
}

/** The last turn as a single question of the existing sets, so score.ts scores it. */
export function lastTurn(c: Conversation): OnTopicQuestion | OffTopicQuestion {
  const question = c.turns[c.turns.length - 1];
  if (OFF_TOPIC_CLASSES.includes(c.class)) return { id: c.id, group: "office", question };
  return { id: c.id, kind: "paraphrase", question, articles: c.articles ?? [], answers: c.answers ?? [] };
}

/** What one conversation's last turn got. */
export interface ConversationOutcome {
  id: string;
  class: ConversationClass;
  turns: string[];
  /** on-topic: the answer cites an acceptable article / quotes an answering sentence; off-topic: false */
  citedCorrect: boolean;
  answerInQuote: boolean;
  declined: boolean;
  /** scored as right: on-topic cited-correct with the answer in the quote; off-topic declined */
  ok: boolean;
  /** how the last turn was searched: the queries the chat made for it, in order */
  searched: ("alone" | "combined")[];
  sections: string[];
  error?: string;
}

/** An answer as stored → what score.ts reads. */
export function observationOf(
  answer: Awaited<ReturnType<ChatService["getMessage"]>>,
  slugById: Map<string, string>,
  searchHits: string[] = [],
): Observation {
  const slugs = answer.citations.map((c) => slugById.get(c.articleId) ?? `?${c.articleId}`);
  return {
    searchHits,
    declined: answer.status === "complete" && answer.mode === "no_sources",
    cited: [...new Set(slugs)],
    sections: answer.citations.map((c, i) => [slugs[i], ...c.headingPath].join(" › ")),
    quoted: quotedText(answer.content),
    ...(answer.status !== "complete" ? { error: `${answer.status}: ${answer.error?.code ?? ""}` } : {}),
  };
}

/** Ask every conversation in its own session of a retrieval-only ChatService over this app's knowledge service. */
export async function runConversations(app: TestApp, set: ConversationSet): Promise<ConversationOutcome[]> {
  const knowledge = app.services.knowledge;
  // the queries the chat retrieves with, to tell "searched alone" from "searched with the earlier turns"
  const queries: string[] = [];
  const chat = new ChatService({
    config: app.config,
    retrieve: (query, k) => {
      queries.push(query);
      return knowledge.chatPassages(query, k);
    },
    users: { emailOf: (id) => app.services.users.emailOf(id), languageOf: async () => "da" },
    llm: null,
  });
  try {
    const slugById = new Map((await knowledge.listArticles()).map((a) => [a.id, slugOf(a.sourceId)]));
    const admin = await app.services.users.findByLogin(app.admin.email);
    const userId = String(admin._id);
    const out: ConversationOutcome[] = [];
    for (const c of set.conversations) {
      const session = await chat.createSession(userId);
      let sent: Awaited<ReturnType<ChatService["sendMessage"]>> | null = null;
      for (const turn of c.turns.slice(0, MAX_TURNS)) {
        queries.length = 0;
        sent = await chat.sendMessage(userId, session.sessionId, turn);
        await chat.whenIdle();
      }
      if (!sent) throw new Error(`${c.id}: no turns`);
      const answer = await chat.getMessage(userId, sent.assistantMessage.id);
      const last = c.turns[c.turns.length - 1].trim();
      const searched = queries.map((q) => (q.trim() === last ? ("alone" as const) : ("combined" as const)));
      const o = observationOf(answer, slugById);
      const q = lastTurn(c);
      if ("articles" in q) {
        const s = scoreOnTopic(q, o);
        out.push({
          id: c.id,
          class: c.class,
          turns: c.turns,
          citedCorrect: s.citedCorrect,
          answerInQuote: s.answerInQuote,
          declined: s.declined,
          // search rank is not measured here (the search page has no history): only the chat answer counts
          ok: !onTopicFailed({ ...s, searchRank: 1 }),
          searched,
          sections: s.sections,
          ...(s.error ? { error: s.error } : {}),
        });
      } else {
        const s = scoreOffTopic(q, o);
        out.push({
          id: c.id,
          class: c.class,
          turns: c.turns,
          citedCorrect: false,
          answerInQuote: false,
          declined: s.declined,
          ok: s.declined && !s.error,
          searched,
          sections: s.sections,
          ...(s.error ? { error: s.error } : {}),
        });
      }
    }
    return out;
  } finally {
    await chat.close();
  }
}

// ---- figures --------------------------------------------------------------------------------------

export interface ClassFigures {
  n: number;
  /** on-topic classes */
  citedCorrect: number;
  answerInQuote: number;
  wronglyDeclined: number;
  /** off-topic classes */
  declined: number;
  /** scored right (see ConversationOutcome.ok) */
  ok: number;
  /** the last turn was searched (also) with the earlier turns */
  searchedCombined: number;
  errors: number;
}

const share = (n: number, of: number) => (of === 0 ? 0 : n / of);

export function classFigures(outcomes: ConversationOutcome[]): ClassFigures {
  const n = outcomes.length;
  const count = (f: (o: ConversationOutcome) => boolean) => share(outcomes.filter(f).length, n);
  return {
    n,
    citedCorrect: count((o) => o.citedCorrect),
    answerInQuote: count((o) => o.answerInQuote),
    wronglyDeclined: count((o) => o.declined),
    declined: count((o) => o.declined),
    ok: count((o) => o.ok),
    searchedCombined: count((o) => o.searched.includes("combined")),
    errors: outcomes.filter((o) => o.error).length,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows
    .map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("   "))
    .join("\n");
}

/** Per class: n, right, cited-correct, in-quote, wrongly declined (on-topic) or declined (off-topic), searched combined. */
export function classTable(outcomes: ConversationOutcome[]): string {
  const rows = [["class", "n", "right", "cited", "in-quote", "declined", "history searched"]];
  for (const k of CLASSES) {
    const f = classFigures(outcomes.filter((o) => o.class === k));
    const off = OFF_TOPIC_CLASSES.includes(k);
    rows.push([
      k,
      String(f.n),
      pct(f.ok),
      off ? "–" : pct(f.citedCorrect),
      off ? "–" : pct(f.answerInQuote),
      `${pct(f.declined)}${off ? " (should)" : " (wrongly)"}`,
      pct(f.searchedCombined),
    ]);
  }
  const all = classFigures(outcomes);
  rows.push(["all", String(all.n), pct(all.ok), "", "", "", pct(all.searchedCombined)]);
  return table(rows);
}

/** The report of one mode: all conversations, the calibration half, the held-out half, and (asked) failures. */
export function multiTurnReport(mode: string, outcomes: ConversationOutcome[], failures: boolean): string {
  const even = outcomes.filter((o) => !isHeldOut(o.id));
  const odd = outcomes.filter((o) => isHeldOut(o.id));
  const parts = [
    `Multi-turn — ${mode}: last turn of ${outcomes.length} conversations (errors: ${classFigures(outcomes).errors})`,
    classTable(outcomes),
    "",
    `Calibration half (even ids, ${even.length})`,
    classTable(even),
    "",
    `Held-out half (odd ids, ${odd.length})`,
    classTable(odd),
  ];
  if (failures) {
    // held-out conversations are counted, never listed
    const failed = even.filter((o) => !o.ok);
    parts.push(
      "",
      `Failures — ${mode}: ${failed.length} of ${even.length} calibration conversations (held-out not listed)`,
    );
    for (const o of failed) {
      parts.push(
        `  [${o.class}] ${o.id}: ${o.turns.map((t) => JSON.stringify(t)).join(" → ")}`,
        `      searched: ${o.searched.join(", ")}; ${o.error ? `error (${o.error})` : o.declined ? "declined" : `quotes ${o.sections.join(" | ")}`}`,
      );
    }
  }
  return parts.join("\n");
}
