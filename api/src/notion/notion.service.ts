/**
 * The Notion feature as the doors (GraphQL, REST, CLI) see it: connection (notion.connection.ts), discovery
 * with suitability scores, the configuration of selected data sources, and the sync (notion.sync.ts) started on
 * a configuration save, on demand and on a schedule (notion.scheduler.ts). Connecting, disconnecting, reading
 * the workspace's databases and configuring are the admin's alone (checked here and in the doors).
 */
import { recordActivity } from "../activity/activity.service";
import { loadJwtSecret } from "../auth/tokens";
import type { AppConfig } from "../config";
import { Errors } from "../errors";
import type { EventBus } from "../events/bus";
import { logger } from "../logger";
import type { UserDoc } from "../users/user.model";
import type { NotionClientOptions } from "./notion.client";
import { NOT_CONNECTED, NotionConnection, type NotionStatusView, toAppError } from "./notion.connection";
import { type DataSource, plain } from "./notion.guards";
import { RequestLimiter } from "./notion.limiter";
import { NotionConfigModel, NotionPageModel } from "./notion.models";
import { isRecommended, suitabilityScore } from "./notion.score";
import { NotionSecrets } from "./notion.secret";
import { latestRun, NotionSync, type SavedArticle, type SyncRunView, type SyncTrigger } from "./notion.sync";

export type { NotionStatusView } from "./notion.connection";
export type { SyncRunView } from "./notion.sync";

export const MAX_SELECTED = 100;
const ID_PATTERN = /^[0-9A-Za-z-]{1,64}$/;
const CONFIG_ID = "config";

/** A workspace database (spec §3 shape) with its score. */
export interface NotionDatabaseView {
  id: string;
  title: Array<{ plain_text: string }>;
  icon: { type: "emoji"; emoji: string } | null;
  page_count: number;
  last_edited_time: string | null;
  properties: Record<string, { type: string }>;
  score: number;
  recommended: boolean;
  selected: boolean;
}

export interface NotionConfigView {
  selectedDatabases: string[];
  lastUpdated: Date | null;
  totalPages: number;
}

export interface NotionServiceDeps {
  config: AppConfig;
  events: EventBus;
  knowledge: {
    saveFromSource(a: SavedArticle): Promise<unknown>;
    deleteFromSource(source: "notion", sourceId: string): Promise<boolean>;
  };
  /** tests: a faster queue and shorter backoff */
  requestsPerSecond?: number;
  clientOptions?: Partial<NotionClientOptions>;
  /** the clock compared with Notion's times (tests: the fake server's) */
  now?: () => number;
}

export class NotionService {
  readonly limiter: RequestLimiter;
  readonly connection: NotionConnection;
  readonly sync: NotionSync;
  private readonly secrets: NotionSecrets;
  /** page counts by data source, kept while its last_edited_time stays the same */
  private readonly counts = new Map<string, { edited: string | null; count: number }>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: NotionServiceDeps) {
    const { config } = deps;
    this.limiter = new RequestLimiter(deps.requestsPerSecond);
    this.secrets = new NotionSecrets(config.notionEncryptionKey ?? loadJwtSecret(config));
    this.connection = new NotionConnection({
      config,
      secrets: this.secrets,
      limiter: this.limiter,
      clientOptions: deps.clientOptions,
    });
    this.sync = new NotionSync({
      connection: this.connection,
      knowledge: deps.knowledge,
      events: deps.events,
      selection: () => this.selection(),
      now: deps.now,
      finished: (run) => {
        void recordActivity({
          action: "notion_sync",
          message: {
            key: "log.notionSync",
            params: { pages: run.pagesDone, failed: run.pagesFailed, removed: run.articlesRemoved },
          },
          metadata: {
            runId: run.id,
            trigger: run.trigger,
            state: run.state,
            pagesSeen: run.pagesSeen,
            pagesDone: run.pagesDone,
            pagesFailed: run.pagesFailed,
            articlesRemoved: run.articlesRemoved,
          },
        });
      },
    });
  }

  // ---- connection -----------------------------------------------------------------------------------

  /** Any signed-in user: connected or not, and the workspace. An outage reads as not connected. */
  async status(): Promise<NotionStatusView> {
    try {
      return await this.connection.status();
    } catch (err) {
      logger.warn({ err: String(err) }, "could not check the Notion connection");
      return NOT_CONNECTED;
    }
  }

  async connectToken(actor: UserDoc, token: unknown): Promise<NotionStatusView> {
    assertAdmin(actor);
    const status = await this.connection.saveToken(token);
    await this.logConnected(actor, status);
    return status;
  }

  async disconnect(actor: UserDoc): Promise<NotionStatusView> {
    assertAdmin(actor);
    const status = await this.connection.disconnect();
    await recordActivity({
      action: "notion_disconnect",
      message: { key: "log.notionDisconnect" },
      userEmail: actor.email,
      userId: String(actor._id),
    });
    return status;
  }

  /** The authorize URL to send the admin to, or null when OAuth is not configured. */
  oauthStart(actor: UserDoc): string | null {
    assertAdmin(actor);
    if (!this.connection.oauthConfigured()) return null;
    return this.connection.authorizeUrl(this.secrets.signState(String(actor._id)));
  }

  /** The callback: the state must be one this app signed for this admin, unexpired. */
  async oauthCallback(actor: UserDoc, code: string, state: string): Promise<NotionStatusView> {
    assertAdmin(actor);
    if (this.secrets.verifyState(state) !== String(actor._id))
      throw Errors.badInput("notion.oauthStateInvalid");
    if (!code || code.length > 1000) throw Errors.badInput("notion.oauthStateInvalid");
    const status = await this.connection.saveOauthCode(code);
    await this.logConnected(actor, status);
    return status;
  }

  private async logConnected(actor: UserDoc, status: NotionStatusView): Promise<void> {
    await recordActivity({
      action: "notion_connect",
      message: { key: "log.notionConnect", params: { workspace: status.workspace?.name ?? "Notion" } },
      userEmail: actor.email,
      userId: String(actor._id),
      metadata: { via: status.via, workspace: status.workspace },
    });
  }

  // ---- discovery and configuration --------------------------------------------------------------------

  /** The workspace's databases (data sources) with score, page count and whether selected. */
  async databases(actor: UserDoc): Promise<NotionDatabaseView[]> {
    assertAdmin(actor);
    const auth = await this.connection.token();
    if (!auth) throw Errors.conflict("notion.notConnected");
    const api = this.connection.api(auth.token);
    const { ids } = await this.selection();
    try {
      const sources = await api.dataSources();
      const out: NotionDatabaseView[] = [];
      for (const ds of sources) out.push(await this.describe(ds, ids, (id) => countPages(api, id)));
      return out;
    } catch (err) {
      throw toAppError(err);
    }
  }

  private async describe(
    ds: DataSource,
    selected: string[],
    count: (id: string) => Promise<number>,
  ): Promise<NotionDatabaseView> {
    const title = plain(ds.title);
    const score = suitabilityScore(title, ds.properties);
    const cached = this.counts.get(ds.id);
    let pageCount = cached && cached.edited === ds.last_edited_time ? cached.count : null;
    if (pageCount === null) {
      pageCount = await count(ds.id);
      this.counts.set(ds.id, { edited: ds.last_edited_time, count: pageCount });
    }
    return {
      id: ds.id,
      title: ds.title,
      icon: ds.icon,
      page_count: pageCount,
      last_edited_time: ds.last_edited_time,
      properties: ds.properties,
      score,
      recommended: isRecommended(score),
      selected: selected.includes(ds.id),
    };
  }

  async getConfig(): Promise<NotionConfigView> {
    const doc = await NotionConfigModel.findById(CONFIG_ID).lean();
    return {
      selectedDatabases: doc?.selectedDatabases ?? [],
      lastUpdated: doc?.lastUpdated ?? null,
      totalPages: await NotionPageModel.countDocuments({}),
    };
  }

  /** Save the selection (admin) and start a sync; the sync's run is readable with latestRun(). */
  async saveConfig(actor: UserDoc, selected: unknown): Promise<NotionConfigView> {
    assertAdmin(actor);
    const ids = readIds(selected);
    const titles = new Map<string, string>();
    const auth = await this.connection.token();
    if (auth && ids.length > 0) {
      try {
        for (const ds of await this.connection.api(auth.token).dataSources()) {
          if (ids.includes(ds.id)) titles.set(ds.id, plain(ds.title).trim() || "Untitled");
        }
      } catch (err) {
        logger.warn({ err: String(err) }, "could not read database titles; the sync reads them");
      }
    }
    await NotionConfigModel.updateOne(
      { _id: CONFIG_ID },
      { $set: { selectedDatabases: ids, titles: Object.fromEntries(titles), lastUpdated: new Date() } },
      { upsert: true },
    );
    await recordActivity({
      action: "notion_config",
      message: { key: "log.notionConfig", params: { count: ids.length } },
      userEmail: actor.email,
      userId: String(actor._id),
      metadata: { selectedDatabases: ids },
    });
    if (auth) await this.sync.start("config");
    return this.getConfig();
  }

  private async selection(): Promise<{ ids: string[]; titles: Map<string, string> }> {
    const doc = await NotionConfigModel.findById(CONFIG_ID).lean();
    const titles = new Map<string, string>(Object.entries((doc?.titles ?? {}) as Record<string, string>));
    return { ids: doc?.selectedDatabases ?? [], titles };
  }

  // ---- sync ------------------------------------------------------------------------------------------

  /** Start a sync (admin); answers at once with the run. */
  async startSync(actor: UserDoc, trigger: SyncTrigger = "manual"): Promise<SyncRunView> {
    assertAdmin(actor);
    if (!(await this.connection.token())) throw Errors.conflict("notion.notConnected");
    return (await this.sync.start(trigger)).run;
  }

  /** The latest run: this process's while it runs, else the store's. */
  async latestRun(): Promise<SyncRunView | null> {
    return this.sync.current ?? latestRun();
  }

  /** Sync every `seconds` (NOTION_SYNC_INTERVAL; 0 = never) while connected and configured. */
  startSchedule(seconds = this.deps.config.notionSyncIntervalSeconds): void {
    if (seconds <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      void this.scheduled().catch((err) => logger.warn({ err: String(err) }, "scheduled Notion sync failed"));
    }, seconds * 1000);
    this.timer.unref();
  }

  private async scheduled(): Promise<void> {
    if (this.sync.current || !(await this.connection.token())) return;
    if ((await this.selection()).ids.length === 0) return;
    await this.sync.start("schedule");
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sync.idle();
  }
}

function assertAdmin(actor: UserDoc): void {
  if (actor.role !== "admin") throw Errors.forbidden("errors.adminOnly");
}

function readIds(v: unknown): string[] {
  if (
    !Array.isArray(v) ||
    v.length > MAX_SELECTED ||
    !v.every((x) => typeof x === "string" && ID_PATTERN.test(x))
  )
    throw Errors.invalidField("selectedDatabases", "notion.databasesInvalid", { max: MAX_SELECTED });
  return [...new Set(v as string[])];
}

async function countPages(api: import("./notion.client").NotionApi, id: string): Promise<number> {
  let n = 0;
  for await (const batch of api.queryPages(id)) n += batch.length;
  return n;
}
