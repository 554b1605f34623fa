/**
 * The follow-up questions of a complete answer with citations, for the answer runner (chat.runner.ts).
 *
 * - Before the answer's final write: the heading-based questions (answer/follow-ups.ts, no model), stored with
 *   the answer and carried by its COMPLETED event.
 * - With a model (and a model-written answer): after COMPLETED, in the background, the model writes its own
 *   (answer/follow-ups.model.ts, within its own timeout). They replace the stored ones when the message still
 *   exists and is complete, and an UPDATED event carries the message to the owner's subscribers. Nothing of this
 *   delays the answer or holds its slot; on any failure the heading-based ones stay.
 */
import mongoose from "mongoose";
import type { LlmClient } from "../llm";
import { logger } from "../logger";
import {
  type AnswerLanguage,
  type AnswerResult,
  type CitedArticle,
  citedArticles,
  suggestFollowUps,
  writeFollowUps,
} from "./answer";
import { ChatMessageModel } from "./chat.model";
import { type ChatMessageView, presentMessage } from "./chat.presenter";

export interface FollowUpDeps {
  llm: LlmClient | null;
  /** the model call's time limit (ms) */
  timeoutMs: number;
  /** a cited article's Markdown (absent: the passages' headings only) */
  articleText?: (articleId: string) => Promise<string | null>;
  /** publish the message with its new follow-ups (an UPDATED event) */
  publishUpdated: (message: ChatMessageView, userId: string) => void;
}

/** The answer the follow-ups are for (the runner's AnswerJob has these). */
export interface FollowUpJob {
  message: { id: string };
  userId: string;
  question: string;
  language: AnswerLanguage;
}

/** What the final write stores, and what the model is given afterwards. */
export interface PreparedFollowUps {
  followUps: string[];
  articles: CitedArticle[];
}

const NONE: PreparedFollowUps = { followUps: [], articles: [] };

export class FollowUpWriter {
  /** model calls under way, each with its stop */
  private readonly tasks = new Map<Promise<void>, AbortController>();

  constructor(private readonly deps: FollowUpDeps) {}

  /** The heading-based questions of a complete answer with citations (none otherwise). */
  async prepare(job: FollowUpJob, result: AnswerResult): Promise<PreparedFollowUps> {
    if (result.status !== "complete" || result.citations.length === 0) return NONE;
    const read = this.deps.articleText;
    const ids = [...new Set(result.citations.map((c) => c.articleId))];
    const texts = new Map<string, string>();
    if (read) {
      const found = await Promise.all(ids.map((articleId) => read(articleId).catch(() => null)));
      ids.forEach((articleId, i) => {
        const text = found[i];
        if (text) texts.set(articleId, text);
      });
    }
    const input = { citations: result.citations, articles: texts, sources: result.sources };
    return {
      followUps: suggestFollowUps({ ...input, question: job.question, language: job.language }),
      articles: citedArticles(input),
    };
  }

  /** After COMPLETED: have the model write them, in the background (see module comment). */
  improve(job: FollowUpJob, result: AnswerResult, prepared: PreparedFollowUps): void {
    const { llm } = this.deps;
    if (!llm || result.mode !== "llm" || result.status !== "complete" || prepared.articles.length === 0)
      return;
    const controller = new AbortController();
    const task = this.write(llm, job, result, prepared, controller.signal)
      .catch((err) => logger.warn({ err, messageId: job.message.id }, "model-written follow-ups failed"))
      .finally(() => this.tasks.delete(task));
    this.tasks.set(task, controller);
  }

  /** The model calls under way, settling when each is stored or dropped. */
  running(): Promise<void>[] {
    return [...this.tasks.keys()];
  }

  /** Stop every model call under way (closing): the heading-based questions stay. */
  abortAll(): void {
    for (const c of this.tasks.values()) c.abort();
  }

  private async write(
    llm: LlmClient,
    job: FollowUpJob,
    result: AnswerResult,
    prepared: PreparedFollowUps,
    signal: AbortSignal,
  ): Promise<void> {
    const followUps = await writeFollowUps(
      { question: job.question, answer: result.content, language: job.language, sources: prepared.articles },
      { llm, signal, timeoutMs: this.deps.timeoutMs },
    );
    if (followUps.length === 0 || signal.aborted) return; // the heading-based ones stay
    if (followUps.join("\n") === prepared.followUps.join("\n")) return;
    // only a message that still exists and is complete (deleted, or its session, meanwhile: nothing)
    const doc = await ChatMessageModel.findOneAndUpdate(
      { _id: new mongoose.Types.ObjectId(job.message.id), role: "assistant", status: "complete" },
      { $set: { followUps } },
      { returnDocument: "after" },
    ).lean();
    if (doc) this.deps.publishUpdated(presentMessage(doc), job.userId);
  }
}
