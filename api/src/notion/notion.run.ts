/** A sync run as the doors show it, and the texts a failure is recorded with (never a token or a stack). */
import { AppError } from "../errors";
import { NotionAuthError, NotionRequestError } from "./notion.client";
import { NotionShapeError } from "./notion.guards";

export interface SyncFailureView {
  pageId: string;
  title: string | null;
  url: string | null;
  message: string;
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
  }>;
  error?: string | null;
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
    })),
    error: d.error ?? null,
  };
}

/** A failure as people read it (Danish). */
export function failureMessage(err: unknown): string {
  if (err instanceof NotionAuthError) return "Notion afviste nøglen (ugyldig eller tilbagekaldt)";
  if (err instanceof NotionShapeError)
    return `Notion sendte et uventet svar (feltet ${err.field.slice(0, 120)} mangler eller har en anden form)`;
  if (err instanceof NotionRequestError) return requestFailure(err);
  if (err instanceof AppError) {
    const fields = err.fields?.map((f) => f.message).join("; ");
    return fields || err.message;
  }
  return "Uventet fejl under synkroniseringen";
}

/** A failed request, by what went wrong; Notion's own error code (English, e.g. "validation_error") is kept as data. */
function requestFailure(err: NotionRequestError): string {
  const code = err.notionCode ? `, ${err.notionCode.slice(0, 60)}` : "";
  if (err.status === 0) return "Notion svarede ikke: kunne ikke nås (netværksfejl eller tidsgrænse)";
  if (err.status === 404) return "Siden findes ikke længere i Notion";
  if (err.status === 429)
    return `Notion svarede ikke: for mange forespørgsler, også efter ventetid (429${code})`;
  if (err.status >= 500) return `Notion svarede ikke: fejl hos Notion (${err.status}${code})`;
  return `Notion afviste forespørgslen (${err.status}${code})`;
}
