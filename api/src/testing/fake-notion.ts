/**
 * A local Notion API server for tests and the bench, driven through the real @notionhq/client. It follows
 * Notion's documented shapes (API version 2025-09-03) for exactly the endpoints the app uses:
 *
 *   POST /v1/search                         data sources, or pages in the trash (filter.in_trash)
 *   GET  /v1/databases/:id                  a database with its data_sources
 *   GET  /v1/data_sources/:id               a data source (title, icon, properties)
 *   POST /v1/data_sources/:id/query         pages, last_edited_time filter + sort, pagination
 *   GET  /v1/pages/:id                      a page (archived ones too; deleted ones 404)
 *   GET  /v1/blocks/:id/children            blocks, pagination, nested children
 *   GET  /v1/users/me                       the integration's bot user (workspace name)
 *   POST /v1/oauth/token, GET /v1/oauth/authorize (approves at once and redirects back with a code)
 *
 * Behaviour a client must survive: a token bucket rate limit (429 + Retry-After above `rps`, switchable),
 * injected 5xx answers, revoked tokens (401), pages archived / trashed / deleted, and edits over time on a
 * clock the test controls (`advance`). last_edited_time is served rounded down to the minute, as Notion does.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  blockJson,
  childrenOf,
  dataSourceJson,
  type FakeDataSource,
  type FakePage,
  type FakePageInput,
  iso,
  type Json,
  list,
  pageJson,
  rich,
  toBlock,
} from "./fake-notion.shapes";

export type { FakeBlockInput, FakePageInput } from "./fake-notion.shapes";

export interface FakeNotionOptions {
  /** valid tokens (default ["secret_test"]) */
  tokens?: string[];
  /** enforce a rate limit (token bucket, default 3 req/s, burst 3) */
  rateLimit?: boolean;
  rps?: number;
  oauth?: { clientId: string; clientSecret: string; workspaceName?: string };
  workspaceName?: string;
}

export class FakeNotion {
  url = "";
  readonly tokens: Set<string>;
  readonly workspaceId = randomUUID();
  workspaceName: string;
  rateLimit: boolean;
  rps: number;
  /** every request: method and path (for request counts) */
  readonly requests: Array<{ method: string; path: string; status: number }> = [];
  private offset = 0;
  private bucket: number;
  private refilled = Date.now();
  private failures: Array<{ status: number; match?: RegExp }> = [];
  private outage = false;
  private readonly sources = new Map<string, FakeDataSource>();
  private readonly pages = new Map<string, FakePage>();
  private readonly codes = new Map<string, string>();
  private readonly server = createServer((req, res) => void this.handle(req, res));

  constructor(private readonly opts: FakeNotionOptions = {}) {
    this.tokens = new Set(opts.tokens ?? ["secret_test"]);
    this.rateLimit = opts.rateLimit ?? false;
    this.rps = opts.rps ?? 3;
    this.bucket = this.rps;
    this.workspaceName = opts.workspaceName ?? "Sekretariatet";
  }

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }

  // ---- the test's controls --------------------------------------------------------------------------

  now(): number {
    return Date.now() + this.offset;
  }

  /** Move the clock on (edits made later carry later times). */
  advance(ms: number): void {
    this.offset += ms;
  }

  revoke(token: string): void {
    this.tokens.delete(token);
  }

  /** The next `count` requests (matching `match`, if given) answer `status`. */
  failNext(count: number, status = 500, match?: RegExp): void {
    for (let i = 0; i < count; i++) this.failures.push({ status, match });
  }

  /** Drop failures injected with failNext() that have not happened yet. */
  clearFailures(): void {
    this.failures = [];
  }

  setOutage(on: boolean): void {
    this.outage = on;
  }

  /** A database with one data source; `properties` name → type (default: Name title, Indhold rich_text, Kategori select, Tags multi_select). */
  addDataSource(title: string, opts: { icon?: string; properties?: Record<string, string> } = {}): string {
    const id = randomUUID();
    this.sources.set(id, {
      id,
      databaseId: randomUUID(),
      title,
      icon: opts.icon ?? null,
      properties: opts.properties ?? {
        Name: "title",
        Indhold: "rich_text",
        Kategori: "select",
        Tags: "multi_select",
      },
      edited: this.now(),
    });
    return id;
  }

  addPage(dataSourceId: string, input: FakePageInput): string {
    const id = randomUUID();
    const now = this.now();
    this.pages.set(id, {
      id,
      dataSourceId,
      input,
      blocks: (input.blocks ?? []).map(toBlock),
      created: now,
      edited: now,
      archived: false,
      inTrash: false,
    });
    this.touch(dataSourceId);
    return id;
  }

  editPage(id: string, changes: FakePageInput): void {
    const p = this.page(id);
    p.input = { ...p.input, ...changes };
    if (changes.blocks) p.blocks = changes.blocks.map(toBlock);
    p.edited = this.now();
    this.touch(p.dataSourceId);
  }

  archivePage(id: string): void {
    const p = this.page(id);
    p.archived = true;
    p.edited = this.now();
  }

  trashPage(id: string): void {
    const p = this.page(id);
    p.inTrash = true;
    p.edited = this.now();
  }

  /** Gone for good (emptied from the trash): 404 from now on. */
  deletePage(id: string): void {
    this.pages.delete(this.page(id).id);
  }

  countRequests(pattern: RegExp): number {
    return this.requests.filter((r) => pattern.test(`${r.method} ${r.path}`)).length;
  }

  private page(id: string): FakePage {
    const p = this.pages.get(id);
    if (!p) throw new Error(`no fake page ${id}`);
    return p;
  }

  private touch(dsId: string): void {
    const ds = this.sources.get(dsId);
    if (ds) ds.edited = this.now();
  }

  // ---- HTTP -------------------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://x");
    const path = url.pathname;
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      this.requests.push({ method: req.method ?? "", path, status });
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    const error = (status: number, code: string, message: string, headers?: Record<string, string>) =>
      send(status, { object: "error", status, code, message, request_id: randomUUID() }, headers);

    if (req.method === "GET" && path === "/v1/oauth/authorize") {
      const code = randomUUID();
      this.codes.set(code, url.searchParams.get("redirect_uri") ?? "");
      const back = new URL(url.searchParams.get("redirect_uri") ?? "http://invalid/");
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      this.requests.push({ method: "GET", path, status: 302 });
      res.writeHead(302, { location: back.toString() });
      res.end();
      return;
    }
    if (this.rateLimit && !this.take())
      return error(429, "rate_limited", "You have been rate limited.", { "retry-after": "1" });
    if (this.outage) return error(503, "service_unavailable", "Notion is unavailable.");
    const fi = this.failures.findIndex((f) => !f.match || f.match.test(path));
    if (fi >= 0) {
      const [f] = this.failures.splice(fi, 1);
      return error(
        f.status,
        f.status === 503 ? "service_unavailable" : "internal_server_error",
        "Unexpected error.",
      );
    }
    let body: Json = {};
    try {
      body = raw ? (JSON.parse(raw) as Json) : {};
    } catch {
      return error(400, "invalid_json", "Body is not JSON.");
    }
    if (req.method === "POST" && path === "/v1/oauth/token") return this.oauthToken(req, body, send, error);
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!auth || !this.tokens.has(auth)) return error(401, "unauthorized", "API token is invalid.");
    if (!req.headers["notion-version"])
      return error(400, "missing_version", "Notion-Version header failed validation.");

    const route = (method: string, re: RegExp): string | null =>
      req.method === method ? (re.exec(path)?.[1] ?? null) : null;
    let m: string | null;
    if (req.method === "GET" && path === "/v1/users/me") return send(200, this.botUser());
    if (req.method === "POST" && path === "/v1/search") return send(200, this.search(body));
    m = route("GET", /^\/v1\/databases\/([\w-]+)$/);
    if (m) {
      const ds = [...this.sources.values()].find((s) => s.databaseId === m);
      if (!ds) return error(404, "object_not_found", "Could not find database.");
      return send(200, {
        object: "database",
        id: ds.databaseId,
        title: rich(ds.title),
        data_sources: [{ id: ds.id, name: ds.title }],
      });
    }
    m = route("GET", /^\/v1\/data_sources\/([\w-]+)$/);
    if (m) {
      const ds = this.sources.get(m);
      return ds
        ? send(200, dataSourceJson(ds))
        : error(404, "object_not_found", "Could not find data source.");
    }
    m = route("POST", /^\/v1\/data_sources\/([\w-]+)\/query$/);
    if (m) {
      if (!this.sources.has(m)) return error(404, "object_not_found", "Could not find data source.");
      return send(200, this.query(m, body));
    }
    m = route("GET", /^\/v1\/pages\/([\w-]+)$/);
    if (m) {
      const p = this.pages.get(m);
      return p
        ? send(200, pageJson(p, this.sources.get(p.dataSourceId)))
        : error(404, "object_not_found", "Could not find page.");
    }
    m = route("GET", /^\/v1\/blocks\/([\w-]+)\/children$/);
    if (m) {
      const children = childrenOf(this.pages.values(), m);
      if (!children) return error(404, "object_not_found", "Could not find block.");
      return send(
        200,
        list(
          children.list.map((b) => blockJson(b, children.parent, this.now())),
          url.searchParams,
          "block",
        ),
      );
    }
    error(400, "invalid_request_url", "Invalid request URL.");
  }

  /** A token bucket: `rps` tokens a second, at most `rps` saved up. */
  private take(): boolean {
    const now = Date.now();
    this.bucket = Math.min(this.rps, this.bucket + ((now - this.refilled) / 1000) * this.rps);
    this.refilled = now;
    if (this.bucket < 1) return false;
    this.bucket -= 1;
    return true;
  }

  private oauthToken(
    req: IncomingMessage,
    body: Json,
    send: (s: number, b: unknown) => void,
    error: (s: number, c: string, m: string) => void,
  ): void {
    const o = this.opts.oauth;
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const [id, secret] = Buffer.from(basic ?? "", "base64")
      .toString("utf8")
      .split(":");
    if (!o || id !== o.clientId || secret !== o.clientSecret) {
      error(401, "unauthorized", "Invalid client.");
      return;
    }
    const code = String(body.code ?? "");
    if (body.grant_type !== "authorization_code" || this.codes.get(code) !== body.redirect_uri) {
      error(400, "invalid_grant", "Invalid code.");
      return;
    }
    this.codes.delete(code);
    const token = `ntn_oauth_${randomUUID().replace(/-/g, "")}`;
    this.tokens.add(token);
    send(200, {
      access_token: token,
      token_type: "bearer",
      refresh_token: null,
      bot_id: randomUUID(),
      workspace_icon: null,
      workspace_name: o.workspaceName ?? this.workspaceName,
      workspace_id: this.workspaceId,
      owner: { type: "workspace", workspace: true },
      duplicated_template_id: null,
      request_id: randomUUID(),
    });
  }

  private botUser(): Json {
    return {
      object: "user",
      id: randomUUID(),
      type: "bot",
      name: "Vidensbank",
      avatar_url: null,
      bot: {
        owner: { type: "workspace", workspace: true },
        workspace_name: this.workspaceName,
        workspace_id: this.workspaceId,
      },
    };
  }

  private search(body: Json): Json {
    const filter = (body.filter ?? {}) as Json;
    const params = new URLSearchParams();
    if (typeof body.start_cursor === "string") params.set("start_cursor", body.start_cursor);
    if (typeof body.page_size === "number") params.set("page_size", String(body.page_size));
    if (filter.value === "data_source")
      return list(
        [...this.sources.values()].map((ds) => dataSourceJson(ds)),
        params,
        "page_or_data_source",
      );
    const trash = filter.in_trash === true;
    const pages = [...this.pages.values()]
      .filter((p) => (trash ? p.archived || p.inTrash : !(p.archived || p.inTrash)))
      .sort((a, b) => b.edited - a.edited);
    return list(
      pages.map((p) => pageJson(p, this.sources.get(p.dataSourceId))),
      params,
      "page_or_data_source",
    );
  }

  private query(dsId: string, body: Json): Json {
    const filter = body.filter as
      | { timestamp?: string; last_edited_time?: { on_or_after?: string } }
      | undefined;
    const after = filter?.last_edited_time?.on_or_after
      ? Date.parse(filter.last_edited_time.on_or_after)
      : null;
    const trash = body.in_trash === true;
    const pages = [...this.pages.values()]
      .filter(
        (p) => p.dataSourceId === dsId && (trash ? p.archived || p.inTrash : !(p.archived || p.inTrash)),
      )
      .filter((p) => after === null || Date.parse(iso(p.edited)) >= after)
      .sort((a, b) => a.edited - b.edited || a.id.localeCompare(b.id));
    const params = new URLSearchParams();
    if (typeof body.start_cursor === "string") params.set("start_cursor", body.start_cursor);
    if (typeof body.page_size === "number") params.set("page_size", String(body.page_size));
    return list(
      pages.map((p) => pageJson(p, this.sources.get(p.dataSourceId))),
      params,
      "page_or_data_source",
    );
  }
}

export async function startFakeNotion(opts: FakeNotionOptions = {}): Promise<FakeNotion> {
  return new FakeNotion(opts).start();
}
