/**
 * What the Notion feature keeps in the store:
 * - notion_connection: the one connection (the token AES-256-GCM encrypted, never in clear), its workspace
 * - notion_config: the selected data sources (spec §3 knowledge configuration) and their titles
 * - notion_pages: each synced page: its data source, last_edited_time and when it was fetched (incremental sync)
 * - notion_sync_runs: one document per sync run (progress, failures)
 * - notion_sync_state: when the last successful sync started, the last full listing
 * - notion_leases: the sync lease (notion.lease.ts)
 */
import mongoose, { Schema } from "mongoose";

const connectionSchema = new Schema(
  {
    _id: { type: String, required: true },
    tokenCipher: { type: String, required: true },
    via: { type: String, enum: ["token", "oauth"], required: true },
    workspaceName: { type: String, default: null },
    workspaceId: { type: String, default: null },
    connectedAt: { type: Date, required: true },
  },
  { collection: "notion_connection", versionKey: false },
);
export const NotionConnectionModel = mongoose.model("NotionConnection", connectionSchema);

const configSchema = new Schema(
  {
    _id: { type: String, required: true },
    selectedDatabases: { type: [String], default: [] },
    /** data source id → its title when it was selected (category fallback, the article's source) */
    titles: { type: Map, of: String, default: {} },
    lastUpdated: { type: Date, default: null },
    totalPages: { type: Number, default: 0 },
  },
  { collection: "notion_config", versionKey: false },
);
export const NotionConfigModel = mongoose.model("NotionConfig", configSchema);

const pageSchema = new Schema(
  {
    pageId: { type: String, required: true },
    dataSourceId: { type: String, required: true },
    lastEditedTime: { type: Date, required: true },
    fetchedAt: { type: Date, required: true },
  },
  { collection: "notion_pages", versionKey: false },
);
pageSchema.index({ pageId: 1 }, { unique: true });
pageSchema.index({ dataSourceId: 1 });
export const NotionPageModel = mongoose.model("NotionPage", pageSchema);

const failureSchema = new Schema(
  // message: the Danish text; messageKey/messageParams: its reason (notion.run.ts), absent on older runs
  {
    pageId: String,
    title: String,
    url: String,
    message: String,
    messageKey: String,
    messageParams: Schema.Types.Mixed,
  },
  { _id: false },
);
const runSchema = new Schema(
  {
    state: { type: String, enum: ["running", "succeeded", "failed"], required: true },
    trigger: { type: String, required: true },
    startedAt: { type: Date, required: true },
    finishedAt: { type: Date, default: null },
    pagesSeen: { type: Number, default: 0 },
    pagesDone: { type: Number, default: 0 },
    pagesFailed: { type: Number, default: 0 },
    articlesRemoved: { type: Number, default: 0 },
    failures: { type: [failureSchema], default: [] },
    error: { type: String, default: null },
    errorKey: { type: String, default: null },
    errorParams: { type: Schema.Types.Mixed, default: null },
  },
  { collection: "notion_sync_runs", versionKey: false },
);
runSchema.index({ startedAt: -1 });
export const NotionSyncRunModel = mongoose.model("NotionSyncRun", runSchema);

const stateSchema = new Schema(
  {
    _id: { type: String, required: true },
    lastSuccessStart: { type: Date, default: null },
    lastFullAt: { type: Date, default: null },
    /** the selection the last successful sync covered (a newly selected data source is listed in full) */
    synced: { type: [String], default: [] },
    /** pages that failed on the last run, retried by id on the next */
    retry: { type: [String], default: [] },
  },
  { collection: "notion_sync_state", versionKey: false },
);
export const NotionSyncStateModel = mongoose.model("NotionSyncState", stateSchema);
