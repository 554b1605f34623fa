/**
 * The Notion side of the browser tests: a workspace of five databases (one per score band of spec §5) served by a
 * small HTTP fake in Notion's documented request/response shapes, and the app started against it through
 * NOTION_API_BASE_URL (config.notionApiBaseUrl). Every answer waits a little so a sync's progress is visible.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { TestApp } from "../../../api/src/testing/app";
import { startServer } from "./server";

const TOKEN = "ntn_e2e_workspace_token";
const WORKSPACE = { name: "Minksekretariatet", id: "ws-e2e-1" };
const EDITED = "2026-11-20T09:30:00.000Z";
const BROKEN_PAGE = "pg-broken";

type Prop = "title" | "rich_text" | "select" | "multi_select" | "date" | "number";
interface FakeDatabase {
  id: string;
  title: string;
  icon: string | null;
  properties: Record<string, Prop>;
  pages: Array<{ id: string; title: string; category?: string; tags?: string[]; lines: string[] }>;
}

const DATABASES: FakeDatabase[] = [
  {
    id: "ds-procedurer",
    title: "Vidensbank procedurer",
    icon: "📚",
    properties: { Navn: "title", Resume: "rich_text", Kategori: "select", Tags: "multi_select" },
    pages: [
      {
        id: "pg-kaffe",
        title: "Kaffeordningen i sekretariatet",
        category: "Procedurer",
        tags: ["kaffe", "fællesskab"],
        lines: ["Kaffeordningen betales kvartalsvis.", "Kontakt økonomi ved spørgsmål om kaffeordning."],
      },
      {
        id: "pg-noegler",
        title: "Udlevering af nøglebrikker",
        lines: ["Nøglebrikker udleveres af receptionen."],
      },
      { id: "pg-post", title: "Daglig postgennemgang", lines: ["Posten gennemgås hver formiddag."] },
    ],
  },
  {
    id: "ds-guides",
    title: "Guides til nye kolleger",
    icon: null,
    properties: { Name: "title", Beskrivelse: "rich_text" },
    pages: [
      { id: "pg-it", title: "IT-opsætning første dag", lines: ["Log ind med din e-mail og skift kodeord."] },
      { id: "pg-frokost", title: "Frokostordning for nye", lines: ["Frokost bestilles senest kl. 10."] },
      // its blocks are refused (400): the sync records the page as failed and goes on
      { id: BROKEN_PAGE, title: "Ødelagt side", lines: [] },
    ],
  },
  {
    id: "ds-moeder",
    title: "Mødereferater",
    icon: "🗂️",
    properties: { Titel: "title", Referat: "rich_text", Dato: "date", Deltagere: "multi_select" },
    pages: [{ id: "pg-moede", title: "Bestyrelsesmøde marts", lines: ["Referat af mødet."] }],
  },
  {
    id: "ds-wiki",
    title: "Wiki-arkiv",
    icon: null,
    properties: { Navn: "title", Oprettet: "date" },
    pages: [{ id: "pg-wiki", title: "Gammel side", lines: ["Arkiveret."] }],
  },
  {
    id: "ds-budget",
    title: "Budget 2027",
    icon: "💰",
    properties: { Post: "title", Beløb: "number" },
    pages: [{ id: "pg-budget", title: "Husleje", lines: ["12.000 kr."] }],
  },
];

function score(db: FakeDatabase): number {
  const types = Object.values(db.properties);
  const keyword = /knowledge|vidensbank|articles|dokumenter|procedurer|guides|wiki|noter/i.test(db.title);
  return Math.min(
    100,
    (types.includes("title") ? 40 : 0) + (types.includes("rich_text") ? 40 : 0) + (keyword ? 20 : 0),
  );
}

const list = (results: unknown[]) => ({ object: "list", results, next_cursor: null, has_more: false });
const text = (s: string) => [{ type: "text", plain_text: s, text: { content: s } }];

function dataSource(db: FakeDatabase) {
  return {
    object: "data_source",
    id: db.id,
    title: text(db.title),
    icon: db.icon ? { type: "emoji", emoji: db.icon } : null,
    last_edited_time: EDITED,
    parent: { type: "database_id", database_id: `db-${db.id}` },
    properties: Object.fromEntries(
      Object.entries(db.properties).map(([name, type]) => [name, { id: name, name, type }]),
    ),
  };
}

function page(db: FakeDatabase, p: FakeDatabase["pages"][number]) {
  const titleProp = Object.entries(db.properties).find(([, t]) => t === "title")?.[0] ?? "Navn";
  const properties: Record<string, unknown> = { [titleProp]: { type: "title", title: text(p.title) } };
  if (p.category && db.properties.Kategori)
    properties.Kategori = { type: "select", select: { name: p.category } };
  if (p.tags && db.properties.Tags)
    properties.Tags = { type: "multi_select", multi_select: p.tags.map((name) => ({ name })) };
  return {
    object: "page",
    id: p.id,
    url: `https://www.notion.so/${p.id}`,
    created_time: "2026-11-01T08:00:00.000Z",
    last_edited_time: EDITED,
    archived: false,
    in_trash: false,
    parent: { type: "data_source_id", data_source_id: db.id, database_id: `db-${db.id}` },
    properties,
  };
}

function blocks(p: FakeDatabase["pages"][number]) {
  return p.lines.map((line, i) => ({
    object: "block",
    id: `${p.id}-b${i}`,
    type: "paragraph",
    has_children: false,
    paragraph: { rich_text: text(line) },
  }));
}

export interface NotionWorkspace {
  app: TestApp;
  token: string;
  workspaceName: string;
  databases: Array<{ id: string; title: string; score: number; pages: number }>;
  /** the two databases the admin selects */
  selected: Array<{ title: string; pages: number }>;
  /** a page of the first selected database, and a word that finds it */
  syncedPage: { title: string; query: string };
  /** a page of the second selected database that cannot be fetched */
  brokenPage: { title: string; url: string };
  close(): Promise<void>;
}

/** Starts the fake Notion server and the app pointed at it. */
export async function startNotionWorkspace(): Promise<NotionWorkspace> {
  const pages = new Map(DATABASES.flatMap((db) => db.pages.map((p) => [p.id, { db, p }] as const)));
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      let filter: { value?: string } = {};
      try {
        filter = (JSON.parse(raw || "{}") as { filter?: { value?: string } }).filter ?? {};
      } catch {
        // not JSON: no filter
      }
      // a little latency per request, so the sync's progress can be watched
      setTimeout(() => {
        if (req.headers.authorization !== `Bearer ${TOKEN}`)
          return send(401, {
            object: "error",
            status: 401,
            code: "unauthorized",
            message: "API token is invalid.",
          });
        const url = new URL(req.url ?? "/", "http://fake");
        const parts = url.pathname.split("/").filter(Boolean); // v1, ...
        if (req.method === "GET" && url.pathname === "/v1/users/me")
          return send(200, {
            object: "user",
            id: "bot-1",
            type: "bot",
            bot: { workspace_name: WORKSPACE.name, workspace_id: WORKSPACE.id },
          });
        if (req.method === "POST" && url.pathname === "/v1/search") {
          // data sources for discovery; nothing in the trash
          return send(200, list(filter.value === "page" ? [] : DATABASES.map(dataSource)));
        }
        if (parts[1] === "data_sources" && parts[2]) {
          const db = DATABASES.find((d) => d.id === parts[2]);
          if (!db)
            return send(404, {
              object: "error",
              status: 404,
              code: "object_not_found",
              message: "Not found",
            });
          if (req.method === "GET" && parts.length === 3) return send(200, dataSource(db));
          if (req.method === "POST" && parts[3] === "query")
            return send(200, list(db.pages.map((p) => page(db, p))));
        }
        if (req.method === "GET" && parts[1] === "pages" && parts[2]) {
          const found = pages.get(parts[2]);
          if (found) return send(200, page(found.db, found.p));
        }
        if (parts[2] === BROKEN_PAGE && parts[1] === "blocks")
          return send(400, {
            object: "error",
            status: 400,
            code: "validation_error",
            message: "Ugyldig blok.",
          });
        if (req.method === "GET" && parts[1] === "blocks" && parts[3] === "children") {
          const found = pages.get(parts[2] ?? "");
          return send(200, list(found ? blocks(found.p) : []));
        }
        return send(404, { object: "error", status: 404, code: "object_not_found", message: "Not found" });
      }, 120);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const app = await startServer({ mail: "outbox", config: { notionApiBaseUrl: baseUrl } });
  const [first, second] = DATABASES;
  return {
    app,
    token: TOKEN,
    workspaceName: WORKSPACE.name,
    databases: DATABASES.map((db) => ({
      id: db.id,
      title: db.title,
      score: score(db),
      pages: db.pages.length,
    })),
    selected: [first, second].map((db) => ({ title: db.title, pages: db.pages.length })),
    syncedPage: { title: "Kaffeordningen i sekretariatet", query: "kaffeordning" },
    brokenPage: { title: "Ødelagt side", url: `https://www.notion.so/${BROKEN_PAGE}` },
    async close() {
      await app.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
