/**
 * The one way this app talks to Notion: @notionhq/client (API version 2025-09-03: databases hold data sources,
 * queried with POST /v1/data_sources/{id}/query) behind the process's request queue (notion.limiter.ts). Its own
 * retries are off: this module retries, so every attempt waits for a slot in the queue.
 *
 * - 429: wait Retry-After (bounded), then retry; the whole queue waits too.
 * - 5xx, timeouts and network errors: exponential backoff, at most `maxRetries` retries.
 * - 401 / 403 (invalid or revoked token): NotionAuthError at once.
 * - Answers are checked by notion.guards.ts; pagination follows next_cursor with page_size 100.
 *
 * The token is handed to the Notion client only; nothing here logs it or puts it in an error.
 *
 * The SDK is loaded at first use (notionSdk()), not at start: most starts never talk to Notion, and loading
 * it cost every start its module-load time. Only this module touches it; the errors it throws are ours.
 */
import type { APIResponseError, Client } from "@notionhq/client";
import { logger } from "../logger";
import {
  asBlock,
  asBotUser,
  asDataSource,
  asList,
  asOauthToken,
  asPage,
  type Block,
  type BotUser,
  type DataSource,
  type NotionList,
  type OauthToken,
  type Page,
} from "./notion.guards";
import { RequestLimiter, sleep } from "./notion.limiter";

export const PAGE_SIZE = 100;
/** The longest Retry-After honoured; a longer one is cut to this. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** The token was refused (invalid or revoked). */
export class NotionAuthError extends Error {
  constructor() {
    super("Notion refused the token");
    this.name = "NotionAuthError";
  }
}

/** Notion could not be reached or kept failing; `status` is the last HTTP status (0 = network). */
export class NotionRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly notionCode: string | null = null,
  ) {
    super(message);
    this.name = "NotionRequestError";
  }
}

export interface NotionClientOptions {
  token: string;
  baseUrl?: string;
  limiter: RequestLimiter;
  /** retries after a 5xx or network error (default 4); 429s are retried up to 2× this */
  maxRetries?: number;
  /** first backoff delay (default 1000 ms, doubled each retry) */
  baseDelayMs?: number;
  timeoutMs?: number;
}

type NotionSdk = typeof import("@notionhq/client");
let sdk: Promise<NotionSdk> | null = null;

/**
 * @notionhq/client, imported once, at the first request (the one place it is loaded). The package is CommonJS: from
 * the sources its exports come as named exports, but in the server's bundle (api/scripts/bundle.mjs, what `npm start`
 * and the Docker image run) a dynamic import of it has only `default` (its module.exports), so both are read.
 */
function notionSdk(): Promise<NotionSdk> {
  sdk ??= import("@notionhq/client").then(sdkExports).catch((err) => {
    sdk = null; // tried again at the next request
    throw err;
  });
  return sdk;
}

/** The SDK's exports: named (from the sources) or only as `default` (from the bundle). */
function sdkExports(mod: NotionSdk | { default: NotionSdk }): NotionSdk {
  return "Client" in mod ? mod : mod.default;
}

async function notionClient(
  auth: string | undefined,
  baseUrl: string | undefined,
  timeoutMs: number,
): Promise<Client> {
  const { Client, LogLevel } = await notionSdk();
  return new Client({
    auth,
    baseUrl,
    timeoutMs,
    retry: false,
    logLevel: LogLevel.ERROR,
    // the message only: extra info may carry request details
    logger: (level, message) => logger.debug({ level }, `notion client: ${message}`),
  });
}

export class NotionApi {
  private client: Promise<Client> | null = null;
  private readonly limiter: RequestLimiter;
  private readonly maxRetries: number;
  private readonly baseDelayMs: number;

  constructor(private readonly opts: NotionClientOptions) {
    this.limiter = opts.limiter;
    this.maxRetries = opts.maxRetries ?? 4;
    this.baseDelayMs = opts.baseDelayMs ?? 1000;
  }

  /** The SDK's client, made at the first request. */
  private sdkClient(): Promise<Client> {
    this.client ??= notionClient(this.opts.token, this.opts.baseUrl, this.opts.timeoutMs ?? 30_000).catch(
      (err) => {
        this.client = null;
        throw err;
      },
    );
    return this.client;
  }

  /** The integration's bot user: checks the token and names the workspace. */
  async me(): Promise<BotUser> {
    return asBotUser(await this.call((c) => c.users.me({})));
  }

  /** Every data source the integration can see. */
  async dataSources(): Promise<DataSource[]> {
    return this.collect(
      (c, cursor) =>
        c.search({
          filter: { property: "object", value: "data_source" },
          page_size: PAGE_SIZE,
          start_cursor: cursor,
        }),
      asDataSource,
      "search",
    );
  }

  async page(id: string): Promise<Page> {
    return asPage(await this.call((c) => c.pages.retrieve({ page_id: id })));
  }

  async dataSource(id: string): Promise<DataSource> {
    return asDataSource(await this.call((c) => c.dataSources.retrieve({ data_source_id: id })));
  }

  /** The pages of a data source (edited on or after `since` when given), oldest edit first, one list page at a time. */
  async *queryPages(dataSourceId: string, since?: Date): AsyncGenerator<Page[]> {
    let cursor: string | undefined;
    do {
      const raw = await this.call((c) =>
        c.dataSources.query({
          data_source_id: dataSourceId,
          page_size: PAGE_SIZE,
          start_cursor: cursor,
          sorts: [{ timestamp: "last_edited_time", direction: "ascending" }],
          ...(since
            ? {
                filter: {
                  timestamp: "last_edited_time",
                  last_edited_time: { on_or_after: since.toISOString() },
                },
              }
            : {}),
        }),
      );
      const list: NotionList<Page> = asList(raw, asPage, "data source query");
      yield list.results;
      cursor = list.has_more ? (list.next_cursor ?? undefined) : undefined;
    } while (cursor);
  }

  /** Pages moved to the trash (or archived) since `since`, newest first. */
  async trashedPagesSince(since: Date): Promise<Page[]> {
    const out: Page[] = [];
    let cursor: string | undefined;
    do {
      const raw = await this.call((c) =>
        c.search({
          filter: { property: "object", value: "page", in_trash: true },
          sort: { timestamp: "last_edited_time", direction: "descending" },
          page_size: PAGE_SIZE,
          start_cursor: cursor,
        }),
      );
      const list = asList(raw, (x) => x, "search");
      let older = false;
      for (const item of list.results) {
        if ((item as { object?: unknown }).object !== "page") continue;
        const page = asPage(item);
        if (new Date(page.last_edited_time) < since) {
          older = true;
          break;
        }
        out.push(page);
      }
      cursor = !older && list.has_more ? (list.next_cursor ?? undefined) : undefined;
    } while (cursor);
    return out;
  }

  /** A block's children (all pages of them). */
  async blockChildren(blockId: string): Promise<Block[]> {
    return this.collect(
      (c, cursor) =>
        c.blocks.children.list({ block_id: blockId, page_size: PAGE_SIZE, start_cursor: cursor }),
      asBlock,
      "block children",
    );
  }

  private async collect<T>(
    fetchPage: (client: Client, cursor: string | undefined) => Promise<unknown>,
    item: (x: unknown) => T,
    what: string,
  ): Promise<T[]> {
    const out: T[] = [];
    let cursor: string | undefined;
    do {
      const list = asList(await this.call((c) => fetchPage(c, cursor)), item, what);
      out.push(...list.results);
      cursor = list.has_more ? (list.next_cursor ?? undefined) : undefined;
    } while (cursor);
    return out;
  }

  /** One request through the queue, retried per the rules above. */
  async call<T>(send: (client: Client) => Promise<T>): Promise<T> {
    const client = await this.sdkClient();
    return callWithRetry(() => send(client), this.limiter, this.maxRetries, this.baseDelayMs);
  }
}

/** Exchange an OAuth code for a token (POST /v1/oauth/token with the client's basic auth). */
export async function exchangeOauthCode(opts: {
  baseUrl?: string;
  clientId: string;
  clientSecret: string;
  code: string;
  redirectUri: string;
  limiter: RequestLimiter;
}): Promise<OauthToken> {
  const client = await notionClient(undefined, opts.baseUrl, 30_000);
  const raw = await callWithRetry(
    () =>
      client.oauth.token({
        grant_type: "authorization_code",
        code: opts.code,
        redirect_uri: opts.redirectUri,
        client_id: opts.clientId,
        client_secret: opts.clientSecret,
      }),
    opts.limiter,
    2,
    500,
  );
  return asOauthToken(raw);
}

function retryAfterMs(err: APIResponseError): number {
  const h = err.headers as unknown as { get?: (n: string) => string | null } | Record<string, string>;
  const value =
    typeof (h as { get?: unknown }).get === "function"
      ? (h as { get: (n: string) => string | null }).get("retry-after")
      : (h as Record<string, string>)["retry-after"];
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : 1000;
}

async function callWithRetry<T>(
  send: () => Promise<T>,
  limiter: RequestLimiter,
  maxRetries: number,
  baseDelayMs: number,
): Promise<T> {
  // loaded by now: every caller has made its client
  const { APIResponseError, isNotionClientError } = await notionSdk();
  let failures = 0;
  let limited = 0;
  for (;;) {
    await limiter.acquire();
    try {
      return await send();
    } catch (err) {
      const status = isNotionClientError(err) && "status" in err ? Number(err.status) : 0;
      if (status === 401 || status === 403) throw new NotionAuthError();
      if (status === 429 && err instanceof APIResponseError && limited < maxRetries * 2) {
        limited++;
        const wait = retryAfterMs(err);
        limiter.pause(wait);
        continue;
      }
      const retryable = status === 0 || status >= 500 || status === 429;
      if (!retryable || failures >= maxRetries) {
        const code = isNotionClientError(err) ? String(err.code) : null;
        throw new NotionRequestError(
          status ? `Notion answered ${status}${code ? ` (${code})` : ""}` : "Notion could not be reached",
          status,
          code,
        );
      }
      await sleep(baseDelayMs * 2 ** failures);
      failures++;
    }
  }
}
