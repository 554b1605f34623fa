import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { NotionAdminConfigState, NotionDatabase } from "../hooks/useNotionAdminConfig";
import { NotionDatabasesCard } from "./NotionDatabasesCard";

const db = (over: Partial<NotionDatabase>): NotionDatabase => ({
  id: "a",
  title: "Vidensbank",
  icon: null,
  pageCount: 3,
  lastEditedTime: "2026-11-20T09:30:00.000Z",
  properties: [],
  score: 100,
  recommended: true,
  selected: false,
  ...over,
});

function state(over: Partial<NotionAdminConfigState> = {}): NotionAdminConfigState {
  return {
    databases: [
      db({
        id: "a",
        icon: "📚",
        properties: ["Navn", "Indhold", "Kategori", "Tags"].map((name) => ({ name, type: "title" })),
      }),
      db({ id: "b", title: "", score: 40, recommended: false, pageCount: 1 }),
    ],
    config: { selectedDatabases: ["a"], lastUpdated: null, totalPages: 3 },
    loading: false,
    error: false,
    reload: () => undefined,
    selected: new Set(["a"]),
    toggle: () => undefined,
    dirty: false,
    save: async () => true,
    saving: false,
    ...over,
  };
}

const text = (html: string) =>
  html
    .replace(/<style[^>]*>.*?<\/style>/gs, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");

describe("NotionDatabasesCard", () => {
  it("should show spec §2's figures, badges, 'Untitled', '…' and the counter", () => {
    const html = renderToStaticMarkup(<NotionDatabasesCard state={state()} />);
    const t = text(html);
    expect(t).toContain("Tilgængelige databaser 2");
    expect(t).toContain("Aktive kilder 1");
    expect(t).toContain("Sider i alt 3");
    expect(t).toContain("Sidst opdateret Aldrig");
    expect(t).toContain("Untitled");
    expect(t).toContain("Navn, Indhold, Kategori, …");
    expect(t).toContain("1 side");
    expect(t).toContain("1 database valgt");
    expect(html.match(/Anbefalet/g)?.length).toBe(1);
    expect(html.match(/>Aktiv</g)?.length).toBe(1);
    expect(html).toContain("📚");
    expect(html).toContain("height:24rem");
  });

  it("should say 'Gemmer...' and disable the button while saving", () => {
    const html = renderToStaticMarkup(<NotionDatabasesCard state={state({ saving: true })} />);
    expect(html).toContain("Gemmer...");
    expect(html).toMatch(/<button[^>]*disabled[^>]*>.*Gemmer\.\.\./);
  });

  it("should show the skeleton and 'Indlæser admin konfiguration...' while loading", () => {
    const html = renderToStaticMarkup(<NotionDatabasesCard state={state({ loading: true })} />);
    expect(html).toContain("Indlæser admin konfiguration...");
    expect(html).toContain("MuiSkeleton");
  });
});
