/**
 * What the admin CLI (`cli/`) may use of the API, exported as `@vidensbank/api/cli`: the config, the database
 * connection, the composition root (`createServices`) and the error types it maps to exit codes. The CLI calls
 * services only: no models, no activity writes of its own.
 */
export type { ActivityEntry, ActivityPage } from "./activity/activity.service";
export type { KnowledgeGapView } from "./admin/gaps";
export type { AdminStatsView } from "./admin/stats.service";
export { type AppConfig, ConfigError, loadConfig } from "./config";
export { type Database, openDatabase } from "./db/connection";
export { AppError, type ErrorCode } from "./errors";
export { ContentError } from "./knowledge/content";
export type { ImportResult } from "./knowledge/knowledge.service";
export type { NotionDatabaseView, NotionStatusView, SyncRunView } from "./notion/notion.service";
export { createServices, type Services } from "./services";
export type { ChatShareView } from "./shares/shares.service";
export type { UserDoc } from "./users/user.model";
export type { AdminUserView, CreateUserInput } from "./users/users.service";
