/**
 * A sync run as the doors show it, and what a failure is recorded with (never a token or a stack): the Danish
 * text (what the CLI prints and the `message` / `error` fields have always carried) and, beside it, a stable
 * reason key with its parameters, which the web app shows in the reader's language.
 */
import { type MessageParams, type NotionFailureReason, notionFailureStoredText } from "@vidensbank/shared";
import { AppError } from "../errors";
import { NotionAuthError, NotionRequestError } from "./notion.client";
import { NotionShapeError } from "./notion.guards";

export interface SyncFailureView {
  pageId: string;
  title: string | null;
  url: string | null;
  message: string;
  /** the reason (a NotionFailureReason of @vidensbank/shared, or a shared catalogue key); null on a failure stored before the keys */
  messageKey: string | null;
  messageParams: MessageParams | null;
}

export interface SyncRunView {
  id: string;
  state: "running" | "succeeded" | "failed";
  trigger: string;
  startedAt: Date;
  finishedAt: Date | null;
  pagesSeen: number;
  pagesDone: number;
  pagesFailed: number;
  articlesRemoved: number;
  failures: SyncFailureView[];
  error: string | null;
  /** the reason of `error` (see SyncFailureView.messageKey) */
  errorKey: string | null;
  errorParams: MessageParams | null;
}

export function toRunView(d: {
  _id: unknown;
  state: string;
  trigger: string;
  startedAt: Date;
  finishedAt?: Date | null;
  pagesSeen?: number | null;
  pagesDone?: number | null;
  pagesFailed?: number | null;
  articlesRemoved?: number | null;
  failures?: Array<{
    pageId?: string | null;
    title?: string | null;
    url?: string | null;
    message?: string | null;
    messageKey?: string | null;
    messageParams?: MessageParams | null;
  }>;
  error?: string | null;
  errorKey?: string | null;
  errorParams?: MessageParams | null;
}): SyncRunView {
  return {
    id: String(d._id),
    state: d.state as SyncRunView["state"],
    trigger: d.trigger,
    startedAt: d.startedAt,
    finishedAt: d.finishedAt ?? null,
    pagesSeen: d.pagesSeen ?? 0,
    pagesDone: d.pagesDone ?? 0,
    pagesFailed: d.pagesFailed ?? 0,
    articlesRemoved: d.articlesRemoved ?? 0,
    failures: (d.failures ?? []).map((f) => ({
      pageId: f.pageId ?? "",
      title: f.title ?? null,
      url: f.url ?? null,
      message: f.message ?? "",
      messageKey: f.messageKey ?? null,
      messageParams: f.messageParams ?? null,
    })),
    error: d.error ?? null,
    errorKey: d.errorKey ?? null,
    errorParams: d.errorParams ?? null,
  };
}

/** What a failure is recorded with: the Danish text and its reason (or an AppError's catalogue key). */
export interface Failure {
  message: string;
  key: string;
  params: MessageParams;
}

/** A failure by reason (@vidensbank/shared NOTION_FAILURE_KEYS), with its stored text from the catalogue. */
export function notionFailure(key: NotionFailureReason, params: MessageParams = {}): Failure {
  return { message: notionFailureStoredText(key, params), key, params };
}

/** A failure as people read it: the Danish text and the reason's key and parameters. */
export function describeFailure(err: unknown): Failure {
  if (err instanceof NotionAuthError) return notionFailure("unauthorized");
  if (err instanceof NotionShapeError)
    return notionFailure("unexpectedShape", { field: err.field.slice(0, 120) });
  if (err instanceof NotionRequestError) return requestFailure(err);
  if (err instanceof AppError) {
    const first = err.fieldErrors?.[0];
    const fields = err.fields?.map((f) => f.message).join("; ");
    if (first && fields) return { message: fields, key: first.key, params: first.params ?? {} };
    return { message: err.message, key: err.key, params: err.params };
  }
  return notionFailure("unexpected");
}

/** A failure as people read it (Danish): what the CLI prints and the `message` / `error` fields carry. */
export function failureMessage(err: unknown): string {
  return describeFailure(err).message;
}

/** A failed request, by what went wrong; Notion's own error code (English, e.g. "validation_error") is kept as data. */
function requestFailure(err: NotionRequestError): Failure {
  const detail = `${err.status}${err.notionCode ? `, ${err.notionCode.slice(0, 60)}` : ""}`;
  if (err.status === 0) return notionFailure("unreachable");
  if (err.status === 404) return notionFailure("pageGone");
  if (err.status === 429) return notionFailure("rateLimited", { detail });
  if (err.status >= 500) return notionFailure("notionError", { detail });
  return notionFailure("rejected", { detail });
}
