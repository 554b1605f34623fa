/**
 * Notion's answers checked at the edge: each guard reads only the fields this feature uses and throws
 * NotionShapeError when one is missing or of the wrong type. The sync records that as a page's failure; it never
 * reaches the store as garbage.
 */

export class NotionShapeError extends Error {
  /** `field`: where in the answer (e.g. "pages.results"), shown to the admin; `problem`: what was wrong, for logs. */
  constructor(
    readonly field: string,
    problem: string,
  ) {
    super(`unexpected Notion response: ${field} ${problem}`);
    this.name = "NotionShapeError";
  }
}

type Obj = Record<string, unknown>;

function obj(v: unknown, what: string): Obj {
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new NotionShapeError(what, "is not an object");
  return v as Obj;
}

function str(v: unknown, what: string): string {
  if (typeof v !== "string") throw new NotionShapeError(what, "is not a string");
  return v;
}

function arr(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw new NotionShapeError(what, "is not a list");
  return v;
}

export interface RichText {
  plain_text: string;
}

export interface NotionList<T> {
  results: T[];
  next_cursor: string | null;
  has_more: boolean;
}

/** A list answer ({ results, next_cursor, has_more }) with each result checked by `item`. */
export function asList<T>(v: unknown, item: (x: unknown) => T, what: string): NotionList<T> {
  const o = obj(v, what);
  const hasMore = o.has_more === true;
  const cursor = o.next_cursor;
  if (hasMore && typeof cursor !== "string") throw new NotionShapeError(`${what}.next_cursor`, "is missing");
  return {
    results: arr(o.results, `${what}.results`).map(item),
    next_cursor: typeof cursor === "string" ? cursor : null,
    has_more: hasMore,
  };
}

/** Rich text pieces; a piece without plain_text reads as "". */
export function asRichText(v: unknown): RichText[] {
  if (!Array.isArray(v)) return [];
  return v.map((p) => ({
    plain_text: typeof (p as Obj)?.plain_text === "string" ? String((p as Obj).plain_text) : "",
  }));
}

export function plain(rt: RichText[]): string {
  return rt.map((p) => p.plain_text).join("");
}

export interface PropertyValue {
  type: string;
  /** the property's value object (title / rich_text list, select, multi_select...) */
  value: unknown;
}

export interface DataSource {
  id: string;
  title: RichText[];
  icon: { type: "emoji"; emoji: string } | null;
  last_edited_time: string | null;
  properties: Record<string, { type: string }>;
  /** the database the data source belongs to (its page URL is the database's) */
  database_id: string | null;
}

function asIcon(v: unknown): DataSource["icon"] {
  const o = v as Obj | null;
  if (o && o.type === "emoji" && typeof o.emoji === "string") return { type: "emoji", emoji: o.emoji };
  return null;
}

export function asDataSource(v: unknown): DataSource {
  const o = obj(v, "data source");
  const props = obj(o.properties ?? {}, "data source properties");
  const properties: DataSource["properties"] = {};
  for (const [name, p] of Object.entries(props)) {
    const t = (p as Obj | null)?.type;
    if (typeof t === "string") properties[name] = { type: t };
  }
  const parent = (o.parent ?? null) as Obj | null;
  return {
    id: str(o.id, "data source id"),
    title: asRichText(o.title),
    icon: asIcon(o.icon),
    last_edited_time: typeof o.last_edited_time === "string" ? o.last_edited_time : null,
    properties,
    database_id: typeof parent?.database_id === "string" ? parent.database_id : null,
  };
}

export interface Page {
  id: string;
  url: string;
  created_time: string;
  last_edited_time: string;
  /** archived or in the trash */
  removed: boolean;
  data_source_id: string | null;
  properties: Record<string, PropertyValue>;
}

export function asPage(v: unknown): Page {
  const o = obj(v, "page");
  const props = obj(o.properties ?? {}, "page properties");
  const properties: Page["properties"] = {};
  for (const [name, p] of Object.entries(props)) {
    const po = p as Obj | null;
    if (po && typeof po.type === "string") properties[name] = { type: po.type, value: po[po.type] };
  }
  const parent = (o.parent ?? null) as Obj | null;
  return {
    id: str(o.id, "page id"),
    url: typeof o.url === "string" ? o.url : "",
    created_time: str(o.created_time, "page created_time"),
    last_edited_time: str(o.last_edited_time, "page last_edited_time"),
    removed: o.archived === true || o.in_trash === true,
    data_source_id: typeof parent?.data_source_id === "string" ? parent.data_source_id : null,
    properties,
  };
}

export interface Block {
  id: string;
  type: string;
  has_children: boolean;
  /** the block's type object (rich_text, checked, language, url, caption...) */
  data: Obj;
}

export function asBlock(v: unknown): Block {
  const o = obj(v, "block");
  const type = str(o.type, "block type");
  const data = o[type];
  return {
    id: str(o.id, "block id"),
    type,
    has_children: o.has_children === true,
    data: typeof data === "object" && data !== null && !Array.isArray(data) ? (data as Obj) : {},
  };
}

export interface BotUser {
  workspace_name: string | null;
  workspace_id: string | null;
}

export function asBotUser(v: unknown): BotUser {
  const o = obj(v, "users/me");
  if (o.object !== "user") throw new NotionShapeError("users/me", "is not a user");
  const bot = (o.bot ?? {}) as Obj;
  return {
    workspace_name: typeof bot.workspace_name === "string" ? bot.workspace_name : null,
    workspace_id: typeof bot.workspace_id === "string" ? bot.workspace_id : null,
  };
}

export interface OauthToken {
  access_token: string;
  workspace_id: string;
  workspace_name: string | null;
}

export function asOauthToken(v: unknown): OauthToken {
  const o = obj(v, "oauth token");
  return {
    access_token: str(o.access_token, "access_token"),
    workspace_id: str(o.workspace_id, "workspace_id"),
    workspace_name: typeof o.workspace_name === "string" ? o.workspace_name : null,
  };
}
