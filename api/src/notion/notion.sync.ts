/**
 * Selected Notion data sources → knowledge articles, through the knowledge import service (saveFromSource /
 * deleteFromSource), one run at a time across processes (notion.lease.ts).
 *
 * Incremental: a data source already synced is queried for pages edited on or after the start of the last
 * successful sync minus EDIT_MARGIN_MS. Notion rounds last_edited_time down to the minute, so a page whose stored
 * last_edited_time equals Notion's is skipped only when it was fetched a full minute after that minute began (a
 * later edit in the same minute carries the same time); anything else is fetched again and the content hash
 * leaves unchanged articles unwritten. Pages moved to the trash (or archived) since then are found with one
 * search; a newly selected data source, and every data source once a day, is listed in full, which also finds
 * pages deleted for good. Pages of data sources no longer selected are removed. A page that fails is recorded on
 * the run and retried on the next run; it never aborts the run.
 */
import type { EventBus } from "../events/bus";
import { logger } from "../logger";
import type { NotionApi } from "./notion.client";
import { NotionAuthError } from "./notion.client";
import type { NotionConnection } from "./notion.connection";
import type { Block, Page } from "./notion.guards";
import { acquireLease } from "./notion.lease";
import { mapPage } from "./notion.mapping";
import { NotionPageModel, NotionSyncRunModel, NotionSyncStateModel } from "./notion.models";
import { MAX_DEPTH, type RenderBlock, renderBlocks } from "./notion.render";
import "./notion.events";
import { describeFailure, type Failure, notionFailure, type SyncRunView, toRunView } from "./notion.run";

export type { SyncRunView } from "./notion.run";

export const EDIT_MARGIN_MS = 2 * 60_000;
export const FULL_LISTING_EVERY_MS = 24 * 60 * 60_000;
export const FAILURES_KEPT = 100;
export const PROGRESS_EVERY_MS = 250;
/** Pages failed earlier and retried by id on the next run: at most this many are remembered. */
export const RETRY_KEPT = 1000;
const STATE_ID = "state";
const LEASE = "notion-sync";

export type SyncTrigger = "config" | "manual" | "schedule" | "cli";

export interface SavedArticle {
  title: string;
  content: string;
  category: string;
  subcategory: string | null;
  tags: string[];
  source: "notion";
  sourceId: string;
  sourceUrl: string | null;
  sourceDatabase: string | null;
  sourceAnchors: Array<{ heading: string; blockId: string }>;
}

export interface SyncDeps {
  connection: NotionConnection;
  knowledge: {
    saveFromSource(a: SavedArticle): Promise<unknown>;
    deleteFromSource(source: "notion", sourceId: string): Promise<boolean>;
  };
  events: EventBus;
  /** the selected data sources and their titles */
  selection(): Promise<{ ids: string[]; titles: Map<string, string> }>;
  /** a finished run (activity log) */
  finished?(run: SyncRunView): void;
  /** the clock compared with Notion's times (tests: the fake server's) */
  now?: () => number;
}

export interface SyncOptions {
  /** list every page of every selected data source */
  full?: boolean;
}

interface RunState {
  view: SyncRunView;
  lastPublished: number;
}

export class NotionSync {
  private running: { run: RunState; done: Promise<SyncRunView> } | null = null;

  private readonly now: () => number;

  constructor(private readonly deps: SyncDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** The run of this process in progress, if any. */
  get current(): SyncRunView | null {
    return this.running?.run.view ?? null;
  }

  /** Start a run (or join the one running here); resolves with the run as started and its completion. */
  async start(
    trigger: SyncTrigger,
    opts: SyncOptions = {},
  ): Promise<{ run: SyncRunView; done: Promise<SyncRunView> }> {
    if (this.running) return { run: this.running.run.view, done: this.running.done };
    const lease = await acquireLease(LEASE);
    if (!lease) {
      // another process is syncing: its run is the latest
      const latest = await latestRun();
      if (latest) return { run: latest, done: Promise.resolve(latest) };
    }
    const doc = await NotionSyncRunModel.create({
      state: "running",
      trigger,
      startedAt: new Date(this.now()),
    });
    const run: RunState = { view: toRunView(doc.toObject()), lastPublished: 0 };
    if (!lease) {
      run.view = {
        ...run.view,
        state: "failed",
        finishedAt: new Date(),
        ...runError(notionFailure("alreadyRunning")),
      };
      await this.save(run, true);
      return { run: run.view, done: Promise.resolve(run.view) };
    }
    this.publish(run, true);
    const done = this.work(run, opts)
      .catch((err) => {
        logger.error({ err }, "notion sync failed");
        Object.assign(run.view, runError(describeFailure(err)));
      })
      .then(async () => {
        run.view.state = run.view.error ? "failed" : "succeeded";
        run.view.finishedAt = new Date();
        await this.save(run, true).catch((err) => logger.error({ err }, "could not save a notion sync run"));
        await lease.release().catch(() => undefined);
        this.running = null;
        this.deps.finished?.(run.view);
        return run.view;
      });
    this.running = { run, done };
    return { run: run.view, done };
  }

  /** Run now and wait for the end. */
  async run(trigger: SyncTrigger, opts: SyncOptions = {}): Promise<SyncRunView> {
    return (await this.start(trigger, opts)).done;
  }

  /** Waits for a run of this process (shutdown). */
  async idle(): Promise<void> {
    await this.running?.done;
  }

  private async work(run: RunState, opts: SyncOptions): Promise<void> {
    const startedAt = run.view.startedAt;
    const auth = await this.deps.connection.token();
    if (!auth) {
      Object.assign(run.view, runError(notionFailure("notConnected")));
      return;
    }
    const api = this.deps.connection.api(auth.token);
    const { ids, titles } = await this.deps.selection();
    const state = (await NotionSyncStateModel.findById(STATE_ID).lean()) ?? {
      lastSuccessStart: null,
      lastFullAt: null,
      synced: [] as string[],
      retry: [] as string[],
    };
    const since = state.lastSuccessStart ? new Date(state.lastSuccessStart.getTime() - EDIT_MARGIN_MS) : null;
    const fullDue =
      opts.full ||
      !state.lastFullAt ||
      startedAt.getTime() - state.lastFullAt.getTime() > FULL_LISTING_EVERY_MS;
    const selected = new Set(ids);

    // no longer selected: their pages leave
    for (const p of await NotionPageModel.find({ dataSourceId: { $nin: ids } }, { pageId: 1 }).lean()) {
      await this.remove(run, p.pageId);
    }
    let failedSource = false;
    for (const ds of ids) {
      const full = fullDue || !since || !(state.synced ?? []).includes(ds);
      try {
        await this.syncSource(run, api, ds, titles.get(ds), full ? null : since);
      } catch (err) {
        if (err instanceof NotionAuthError) throw err;
        failedSource = true;
        this.fail(run, { pageId: ds, title: titles.get(ds) ?? null, url: null }, err);
      }
    }
    if (failedSource) {
      // the sync state stays where it was: the next run covers this window again
      Object.assign(run.view, runError(notionFailure("someDatabasesFailed")));
      return;
    }
    // pages moved to the trash since the last sync
    if (since) {
      for (const page of await api.trashedPagesSince(since)) {
        if (page.data_source_id && !selected.has(page.data_source_id)) continue;
        await this.remove(run, page.id);
      }
    }
    await this.retryFailedBefore(run, api, (state as { retry?: string[] }).retry ?? [], titles);
    await NotionSyncStateModel.updateOne(
      { _id: STATE_ID },
      {
        $set: {
          lastSuccessStart: startedAt,
          synced: ids,
          retry: run.view.failures.map((f) => f.pageId).slice(0, RETRY_KEPT),
          ...(fullDue ? { lastFullAt: startedAt } : {}),
        },
      },
      { upsert: true },
    );
  }

  private async syncSource(
    run: RunState,
    api: NotionApi,
    ds: string,
    knownTitle: string | undefined,
    since: Date | null,
  ): Promise<void> {
    const title = knownTitle ?? plainTitle(await api.dataSource(ds));
    const seen = new Set<string>();
    for await (const batch of api.queryPages(ds, since ?? undefined)) {
      for (const page of batch) {
        seen.add(page.id);
        run.view.pagesSeen++;
        await this.syncPage(run, api, page, ds, title);
        this.publish(run);
      }
    }
    if (since === null) {
      // a full listing: pages no longer in it were deleted
      for (const p of await NotionPageModel.find({ dataSourceId: ds }, { pageId: 1 }).lean()) {
        if (!seen.has(p.pageId)) await this.remove(run, p.pageId);
      }
    }
  }

  private async syncPage(
    run: RunState,
    api: NotionApi,
    page: Page,
    ds: string,
    dsTitle: string,
  ): Promise<void> {
    if (page.removed) {
      await this.remove(run, page.id);
      run.view.pagesDone++;
      return;
    }
    const edited = new Date(page.last_edited_time);
    const known = await NotionPageModel.findOne({ pageId: page.id }).lean();
    if (
      known &&
      known.dataSourceId === ds &&
      known.lastEditedTime.getTime() === edited.getTime() &&
      known.fetchedAt.getTime() >= edited.getTime() + 60_000
    ) {
      run.view.pagesDone++;
      return;
    }
    // the title comes from the page's properties, so a page whose blocks fail is still listed by its title
    let title: string | null = null;
    try {
      title = mapPage(page, dsTitle, []).title;
      const blocks = await fetchTree(api, page.id, 0);
      const rendered = renderBlocks(blocks);
      const mapped = mapPage(page, dsTitle, rendered.lines);
      const fetchedAt = new Date(this.now());
      await this.deps.knowledge.saveFromSource({
        ...mapped,
        source: "notion",
        sourceId: page.id,
        sourceUrl: page.url || null,
        sourceDatabase: dsTitle,
        sourceAnchors: rendered.anchors,
      });
      await NotionPageModel.updateOne(
        { pageId: page.id },
        { $set: { dataSourceId: ds, lastEditedTime: edited, fetchedAt } },
        { upsert: true },
      );
      run.view.pagesDone++;
    } catch (err) {
      if (err instanceof NotionAuthError) throw err;
      this.fail(run, { pageId: page.id, title, url: page.url || null }, err);
    }
  }

  /** Pages that failed on the previous run and were not edited since: fetched by id. */
  private async retryFailedBefore(
    run: RunState,
    api: NotionApi,
    retry: string[],
    titles: Map<string, string>,
  ): Promise<void> {
    const handled = new Set(run.view.failures.map((f) => f.pageId));
    for (const id of retry) {
      if (handled.has(id)) continue;
      try {
        const page = await api.page(id);
        const ds = page.data_source_id;
        if (page.removed || !ds || !titles.has(ds)) {
          await this.remove(run, id);
          continue;
        }
        run.view.pagesSeen++;
        await this.syncPage(run, api, page, ds, titles.get(ds) ?? "Notion");
      } catch (err) {
        if (err instanceof NotionAuthError) throw err;
        this.fail(run, { pageId: id, title: null, url: null }, err);
      }
    }
  }

  private async remove(run: RunState, pageId: string): Promise<void> {
    const existed = await this.deps.knowledge.deleteFromSource("notion", pageId);
    await NotionPageModel.deleteOne({ pageId });
    if (existed) run.view.articlesRemoved++;
    this.publish(run);
  }

  /** Records a page's failure in Danish for the admin; the log keeps the error's own (technical) text. */
  private fail(
    run: RunState,
    page: Pick<SyncRunView["failures"][number], "pageId" | "title" | "url">,
    err: unknown,
  ): void {
    const { message, key, params } = describeFailure(err);
    const f = { ...page, message, messageKey: key, messageParams: params };
    run.view.pagesFailed++;
    if (run.view.failures.length < FAILURES_KEPT) run.view.failures.push(f);
    const detail = err instanceof Error ? err.message.slice(0, 300) : String(err).slice(0, 300);
    logger.warn({ pageId: f.pageId, message: f.message, detail }, "notion page failed; skipped");
    this.publish(run);
  }

  private publish(run: RunState, force = false): void {
    const now = Date.now();
    if (!force && now - run.lastPublished < PROGRESS_EVERY_MS) return;
    run.lastPublished = now;
    this.deps.events.publish("NOTION_SYNC_PROGRESS", { ...run.view, failures: [...run.view.failures] });
    void this.save(run).catch((err) => logger.warn({ err }, "could not save notion sync progress"));
  }

  private async save(run: RunState, publish = false): Promise<void> {
    const { id, ...fields } = run.view;
    await NotionSyncRunModel.updateOne({ _id: id }, { $set: fields });
    if (publish)
      this.deps.events.publish("NOTION_SYNC_PROGRESS", { ...run.view, failures: [...run.view.failures] });
  }
}

/** The latest run (any process), or null. */
export async function latestRun(): Promise<SyncRunView | null> {
  const doc = await NotionSyncRunModel.findOne({}).sort({ startedAt: -1 }).lean();
  return doc ? toRunView(doc) : null;
}

function plainTitle(ds: { title: Array<{ plain_text: string }> }): string {
  return (
    ds.title
      .map((t) => t.plain_text)
      .join("")
      .trim() || "Untitled"
  );
}

/** A block list with children fetched (paginated) down to MAX_DEPTH; sub-pages are their own articles. */
async function fetchTree(api: NotionApi, blockId: string, depth: number): Promise<RenderBlock[]> {
  const blocks: RenderBlock[] = await api.blockChildren(blockId);
  if (depth >= MAX_DEPTH) return blocks;
  for (const b of blocks) {
    if (b.has_children && !isSubPage(b)) b.children = await fetchTree(api, b.id, depth + 1);
  }
  return blocks;
}

function isSubPage(b: Block): boolean {
  return b.type === "child_page" || b.type === "child_database";
}

/** a run's error fields: the Danish text and its reason */
function runError(f: Failure): Pick<SyncRunView, "error" | "errorKey" | "errorParams"> {
  return { error: f.message, errorKey: f.key, errorParams: f.params };
}
