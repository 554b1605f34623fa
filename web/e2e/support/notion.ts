/**
 * The Notion side of the browser tests: a workspace of five databases (one per score band of spec §5) on the
 * backend's fake Notion server (api/src/testing/fake-notion.ts, Notion's documented shapes, driven through the real
 * @notionhq/client), and the app started against it through NOTION_API_BASE_URL (config.notionApiBaseUrl).
 */
import type { TestApp } from "../../../api/src/testing/app";
import { type FakeNotion, type FakePageInput, startFakeNotion } from "../../../api/src/testing/fake-notion";
import { startServer } from "./server";

const TOKEN = "ntn_e2e_workspace_token";
const WORKSPACE = "Minksekretariatet";

interface SeedDatabase {
  title: string;
  icon?: string;
  properties: Record<string, string>;
  pages: FakePageInput[];
}

const para = (text: string) => ({ type: "paragraph", text });

const DATABASES: SeedDatabase[] = [
  {
    title: "Vidensbank procedurer",
    icon: "📚",
    properties: { Navn: "title", Resume: "rich_text", Kategori: "select", Tags: "multi_select" },
    pages: [
      {
        title: "Kaffeordningen i sekretariatet",
        category: "Procedurer",
        tags: ["kaffe", "fællesskab"],
        blocks: [
          { type: "heading_2", text: "Betaling" },
          para("Kaffeordningen betales kvartalsvis."),
          { type: "bulleted_list_item", text: "Kontakt økonomi ved spørgsmål om kaffeordning." },
        ],
      },
      { title: "Udlevering af nøglebrikker", blocks: [para("Nøglebrikker udleveres af receptionen.")] },
      { title: "Daglig postgennemgang", blocks: [para("Posten gennemgås hver formiddag.")] },
    ],
  },
  {
    title: "Guides til nye kolleger",
    properties: { Name: "title", Beskrivelse: "rich_text" },
    pages: [
      { title: "IT-opsætning første dag", blocks: [para("Log ind med din e-mail og skift kodeord.")] },
      { title: "Frokostordning for nye", blocks: [para("Frokost bestilles senest kl. 10.")] },
      // its blocks are refused once (400): the sync records the page as failed and goes on
      { title: "Ødelagt side", blocks: [para("Kan ikke hentes.")] },
    ],
  },
  {
    title: "Mødereferater",
    icon: "🗂️",
    properties: { Titel: "title", Referat: "rich_text", Dato: "date", Deltagere: "multi_select" },
    pages: [{ title: "Bestyrelsesmøde marts", blocks: [para("Referat af mødet.")] }],
  },
  {
    title: "Wiki-arkiv",
    properties: { Navn: "title", Oprettet: "date" },
    pages: [{ title: "Gammel side", blocks: [para("Arkiveret.")] }],
  },
  {
    title: "Budget 2027",
    icon: "💰",
    properties: { Post: "title", Beløb: "number" },
    pages: [{ title: "Husleje", blocks: [para("12.000 kr.")] }],
  },
];

/** Spec §5, written out again on purpose: the test checks the screen against the rule, not the server's code. */
function score(db: SeedDatabase): number {
  const types = Object.values(db.properties);
  const keyword = /knowledge|vidensbank|articles|dokumenter|procedurer|guides|wiki|noter/i.test(db.title);
  return Math.min(
    100,
    (types.includes("title") ? 40 : 0) + (types.includes("rich_text") ? 40 : 0) + (keyword ? 20 : 0),
  );
}

export interface NotionWorkspace {
  app: TestApp;
  fake: FakeNotion;
  token: string;
  workspaceName: string;
  databases: Array<{ title: string; score: number; pages: number }>;
  /** the two databases the admin selects */
  selected: Array<{ title: string; pages: number }>;
  /** a page of the first selected database, and a word that finds it */
  syncedPage: { title: string; query: string };
  /** the page of the second selected database that Notion refuses once */
  brokenPageId: string;
  close(): Promise<void>;
}

/** Starts the fake Notion server with the workspace, and the app pointed at it. */
export async function startNotionWorkspace(): Promise<NotionWorkspace> {
  const fake = await startFakeNotion({ tokens: [TOKEN], workspaceName: WORKSPACE });
  let brokenPageId = "";
  for (const db of DATABASES) {
    const id = fake.addDataSource(db.title, { icon: db.icon, properties: db.properties });
    for (const page of db.pages) {
      const pageId = fake.addPage(id, page);
      if (page.title === "Ødelagt side") brokenPageId = pageId;
    }
  }
  fake.failNext(1, 400, new RegExp(`/blocks/${brokenPageId}/children`));
  const app = await startServer({ mail: "outbox", config: { notionApiBaseUrl: fake.url } });
  const [first, second] = DATABASES;
  return {
    app,
    fake,
    token: TOKEN,
    workspaceName: WORKSPACE,
    databases: DATABASES.map((db) => ({ title: db.title, score: score(db), pages: db.pages.length })),
    selected: [first, second].map((db) => ({ title: db.title, pages: db.pages.length })),
    syncedPage: { title: "Kaffeordningen i sekretariatet", query: "kaffeordning" },
    brokenPageId,
    async close() {
      await app.close();
      await fake.close();
    },
  };
}
