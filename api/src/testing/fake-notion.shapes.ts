/** The JSON shapes of the fake Notion server (fake-notion.ts): Notion's documented objects, API 2025-09-03. */
import { randomUUID } from "node:crypto";

export interface FakeBlockInput {
  type: string;
  text?: string;
  checked?: boolean;
  children?: FakeBlockInput[];
  /** extra fields of the type object (e.g. { cells } for table_row) */
  extra?: Record<string, unknown>;
}

export interface FakeBlock {
  id: string;
  type: string;
  text: string;
  checked?: boolean;
  extra?: Record<string, unknown>;
  children: FakeBlock[];
}

export interface FakePageInput {
  title?: string;
  category?: string;
  subcategory?: string;
  tags?: string[];
  blocks?: FakeBlockInput[];
}

export interface FakePage {
  id: string;
  dataSourceId: string;
  input: FakePageInput;
  blocks: FakeBlock[];
  created: number;
  edited: number;
  archived: boolean;
  inTrash: boolean;
}

export interface FakeDataSource {
  id: string;
  databaseId: string;
  title: string;
  icon: string | null;
  properties: Record<string, string>;
  edited: number;
}

export type Json = Record<string, unknown>;
export const rich = (content: string) =>
  content
    ? [
        {
          type: "text",
          text: { content, link: null },
          annotations: {
            bold: false,
            italic: false,
            strikethrough: false,
            underline: false,
            code: false,
            color: "default",
          },
          plain_text: content,
          href: null,
        },
      ]
    : [];
export const iso = (ms: number) => new Date(Math.floor(ms / 60_000) * 60_000).toISOString();

export function list(items: unknown[], params: URLSearchParams, type: string): Json {
  const size = Math.min(100, Math.max(1, Number(params.get("page_size") ?? 100) || 100));
  const start = Number(Buffer.from(params.get("start_cursor") ?? "", "base64url").toString() || 0);
  const results = items.slice(start, start + size);
  const more = start + size < items.length;
  return {
    object: "list",
    results,
    next_cursor: more ? Buffer.from(String(start + size)).toString("base64url") : null,
    has_more: more,
    type,
    [type]: {},
  };
}

export function dataSourceJson(ds: FakeDataSource): Json {
  const properties: Json = {};
  for (const [name, type] of Object.entries(ds.properties))
    properties[name] = { id: name.slice(0, 4), name, type, [type]: {} };
  return {
    object: "data_source",
    id: ds.id,
    created_time: iso(ds.edited),
    last_edited_time: iso(ds.edited),
    title: rich(ds.title),
    description: [],
    icon: ds.icon ? { type: "emoji", emoji: ds.icon } : null,
    properties,
    parent: { type: "database_id", database_id: ds.databaseId },
    database_parent: { type: "workspace", workspace: true },
    archived: false,
    in_trash: false,
    url: `https://www.notion.so/${ds.databaseId.replace(/-/g, "")}`,
  };
}

export function pageJson(p: FakePage, ds: FakeDataSource | undefined): Json {
  const properties: Json = {};
  const selects = Object.entries(ds?.properties ?? {}).filter(([, t]) => t === "select");
  for (const [name, type] of Object.entries(ds?.properties ?? {})) {
    let value: unknown = null;
    if (type === "title") value = rich(p.input.title ?? "");
    else if (type === "rich_text") value = [];
    else if (type === "select") {
      const v = name === selects[0]?.[0] ? p.input.category : p.input.subcategory;
      value = v ? { id: v, name: v, color: "default" } : null;
    } else if (type === "multi_select")
      value = (p.input.tags ?? []).map((t) => ({ id: t, name: t, color: "default" }));
    properties[name] = { id: name.slice(0, 4), type, [type]: value };
  }
  const slug = (p.input.title ?? "").replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "");
  return {
    object: "page",
    id: p.id,
    created_time: iso(p.created),
    last_edited_time: iso(p.edited),
    archived: p.archived,
    in_trash: p.inTrash,
    is_locked: false,
    icon: null,
    cover: null,
    url: `https://www.notion.so/${slug ? `${slug}-` : ""}${p.id.replace(/-/g, "")}`,
    public_url: null,
    parent: { type: "data_source_id", data_source_id: p.dataSourceId, database_id: ds?.databaseId },
    properties,
  };
}

export function childrenOf(
  pages: Iterable<FakePage>,
  id: string,
): { list: FakeBlock[]; parent: Json } | null {
  const all = [...pages];
  const page = all.find((p) => p.id === id);
  if (page) return { list: page.blocks, parent: { type: "page_id", page_id: id } };
  const find = (blocks: FakeBlock[]): FakeBlock | null => {
    for (const b of blocks) {
      if (b.id === id) return b;
      const inner = find(b.children);
      if (inner) return inner;
    }
    return null;
  };
  for (const p of all) {
    const b = find(p.blocks);
    if (b) return { list: b.children, parent: { type: "block_id", block_id: id } };
  }
  return null;
}

export function blockJson(b: FakeBlock, parent: Json, now: number): Json {
  const data: Json = { rich_text: rich(b.text), color: "default", ...b.extra };
  if (b.type === "to_do") data.checked = b.checked ?? false;
  return {
    object: "block",
    id: b.id,
    parent,
    created_time: iso(now),
    last_edited_time: iso(now),
    has_children: b.children.length > 0,
    archived: false,
    in_trash: false,
    type: b.type,
    [b.type]: data,
  };
}

export function toBlock(b: FakeBlockInput): FakeBlock {
  return {
    id: randomUUID(),
    type: b.type,
    text: b.text ?? "",
    checked: b.checked,
    extra: b.extra,
    children: (b.children ?? []).map(toBlock),
  };
}
