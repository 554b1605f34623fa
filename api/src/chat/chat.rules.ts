/**
 * The chat's rules on input, written once: its limits and the checks of a title, a search
 * and a feedback. Pure: no database, no transport. The session, send and runner files apply them.
 */
import { FEEDBACK_COMMENT_MAX_LENGTH, NEW_SESSION_TITLE, SEARCH_QUERY_MAX_LENGTH } from "@vidensbank/shared";
import type mongoose from "mongoose";
import { toObjectId } from "../db/ids";
import { Errors } from "../errors";
import { SESSION_TITLE_MAX_LENGTH } from "./answer";
import type { MessageStatus } from "./chat.model";

export { FEEDBACK_COMMENT_MAX_LENGTH, NEW_SESSION_TITLE, SEARCH_QUERY_MAX_LENGTH };
/** an answer in one of these states is still being generated (here or by a process that may be gone) */
export const IN_PROGRESS: MessageStatus[] = ["pending", "streaming"];

/** A 24-hex id as an ObjectId; null for anything else (never throws on client input). */
export function objectId(id: string): mongoose.Types.ObjectId | null {
  return toObjectId(id);
}

/** The signed-in user's id as stored on chat documents; UNAUTHENTICATED when it is not an id. */
export function userOid(userId: string): mongoose.Types.ObjectId {
  const oid = objectId(userId);
  if (!oid) throw Errors.unauthenticated();
  return oid;
}

/**
 * A session title with its whitespace collapsed, 1–SESSION_TITLE_MAX_LENGTH characters. An empty title is null
 * when `allowEmpty` (creating: the default title applies), else refused.
 */
export function cleanTitle(title: unknown, allowEmpty: boolean): string | null {
  if (typeof title !== "string") throw Errors.invalidField("title", "chat.titleEmpty");
  const t = title.replace(/\s+/g, " ").trim();
  if (!t) {
    if (allowEmpty) return null;
    throw Errors.invalidField("title", "chat.titleEmpty");
  }
  if (t.length > SESSION_TITLE_MAX_LENGTH) {
    throw Errors.invalidField("title", "chat.titleTooLong", { max: SESSION_TITLE_MAX_LENGTH });
  }
  return t;
}

/** The search text trimmed, at most SEARCH_QUERY_MAX_LENGTH characters ('' lists every session). */
export function cleanSearchQuery(query: unknown): string {
  if (typeof query !== "string") throw Errors.badInput("chat.searchTooLong");
  const q = query.trim();
  if (q.length > SEARCH_QUERY_MAX_LENGTH) {
    throw Errors.invalidField("query", "chat.searchTooLong");
  }
  return q;
}

/** A feedback: rating 'up' or 'down', the comment trimmed (at most FEEDBACK_COMMENT_MAX_LENGTH), '' as null. */
export function cleanFeedback(
  rating: unknown,
  comment: unknown,
): { rating: "up" | "down"; comment: string | null } {
  if (rating !== "up" && rating !== "down") {
    throw Errors.invalidField("rating", "chat.feedbackRating");
  }
  const text = typeof comment === "string" ? comment.trim() : "";
  if (text.length > FEEDBACK_COMMENT_MAX_LENGTH) {
    throw Errors.invalidField("comment", "chat.feedbackTooLong");
  }
  return { rating, comment: text || null };
}
