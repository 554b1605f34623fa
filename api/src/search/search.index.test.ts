import { describe, expect, it } from "vitest";
import { computeFingerprint } from "./search.fingerprint";
import { KnowledgeIndex, MAX_QUERY_LENGTH } from "./search.index";
import { buildArticle, sampleArticles } from "./search.test-helpers";
import type { SearchHit } from "./search.types";

const marked = (hit: SearchHit) => hit.highlights.map((h) => hit.snippet.slice(h.start, h.end));

async function indexWith(...articles: ReturnType<typeof buildArticle>[]) {
  const index = new KnowledgeIndex();
  for (const a of articles) await index.upsertArticle(a);
  return index;
}

describe("KnowledgeIndex", () => {
  describe("Danish stemming", () => {
    it("should find 'sagsbehandlingen' with 'sagsbehandling' and the reverse", async () => {
      const definite = buildArticle({ content: "Sagsbehandlingen skal være grundig og hurtig." });
      const indefinite = buildArticle({ content: "God sagsbehandling kræver faste frister." });
      const other = buildArticle({ content: "Budgettet vedtages i november." });
      const index = await indexWith(definite, indefinite, other);

      const ids = (q: string) =>
        index
          .search(q)
          .hits.map((h) => h.articleId)
          .sort();
      expect(ids("sagsbehandling")).toEqual([definite.id, indefinite.id].sort());
      expect(ids("sagsbehandlingen")).toEqual([definite.id, indefinite.id].sort());
      expect(ids("sagsbehandlinger")).toEqual([definite.id, indefinite.id].sort());
    });
  });

  describe("keeping current", () => {
    it("should find an edited article by its new words at once and not by its old ones", async () => {
      const a = buildArticle({ title: "Mødeplan", content: "Bestyrelsen mødes i januar og marts." });
      const index = await indexWith(a, buildArticle({ content: "Andet indhold om kontoret." }));
      expect(index.search("januar").hits.map((h) => h.articleId)).toEqual([a.id]);
      expect((await index.retrieve("januar")).passages.map((p) => p.articleId)).toEqual([a.id]);

      const result = await index.upsertArticle({
        ...a,
        title: "Ny mødeplan",
        content: "Bestyrelsen mødes i september.",
      });
      expect(result).toMatchObject({ articleId: a.id, changed: true, passages: 1 });

      expect(index.search("januar").total).toBe(0);
      expect((await index.retrieve("januar")).passages).toEqual([]);
      expect(index.search("september").hits.map((h) => h.articleId)).toEqual([a.id]);
      expect((await index.retrieve("september")).passages.map((p) => p.articleId)).toEqual([a.id]);
      expect(index.search("september").hits[0].title).toBe("Ny mødeplan");
      expect(index.stats()).toMatchObject({ articles: 2, passages: 2 });
    });

    it("should make a deleted article disappear from search and retrieval", async () => {
      const a = buildArticle({ content: "Databrud anmeldes til Datatilsynet inden 72 timer." });
      const b = buildArticle({ content: "Databrud registreres også i hændelsesloggen." });
      const index = await indexWith(a, b);
      expect(index.search("databrud").total).toBe(2);

      expect(await index.removeArticle(a.id)).toBe(true);
      expect(index.search("databrud").hits.map((h) => h.articleId)).toEqual([b.id]);
      expect(index.search("Datatilsynet").total).toBe(0);
      const passages = (await index.retrieve("databrud Datatilsynet", { k: 10 })).passages;
      expect(passages.map((p) => p.articleId)).toEqual([b.id]);
      expect(index.has(a.id)).toBe(false);
      expect(index.passagesOf(a.id)).toEqual([]);
      expect(await index.removeArticle(a.id)).toBe(false);
      // A word only the deleted article had is no longer a typo target either.
      expect(index.search("Datatilsynt").total).toBe(0);
    });

    it("should skip an upsert of the same revision and count versions", async () => {
      const a = buildArticle();
      const index = await indexWith(a);
      const v = index.version;
      expect((await index.upsertArticle({ ...a })).changed).toBe(false);
      expect(index.version).toBe(v);
      await index.upsertArticle({ ...a, content: "Ny tekst." });
      expect(index.version).toBe(v + 1);
    });

    it("should re-index an edit even when the caller keeps the same updatedAt", async () => {
      const updatedAt = new Date("2025-05-01T00:00:00Z");
      const a = buildArticle({ content: "Gammel ordlyd.", updatedAt });
      const index = await indexWith(a);
      expect((await index.upsertArticle({ ...a, content: "Frisk ordlyd.", updatedAt })).changed).toBe(true);
      expect(index.search("frisk").total).toBe(1);
      expect(index.search("gammel").total).toBe(0);
    });

    it("should apply concurrent mutations in call order", async () => {
      const a = buildArticle({ content: "version et" });
      const index = new KnowledgeIndex();
      await Promise.all([
        index.upsertArticle(a),
        index.upsertArticle({ ...a, content: "version to" }),
        index.removeArticle(a.id),
        index.upsertArticle({ ...a, content: "version tre" }),
      ]);
      expect(index.search("tre").hits.map((h) => h.articleId)).toEqual([a.id]);
      expect(index.search("to").total).toBe(0);
      expect(index.stats().articles).toBe(1);
    });
  });

  describe("rebuildFrom and fingerprint", () => {
    it("should sync to a new set of articles, re-indexing only what changed", async () => {
      const a = buildArticle({ content: "Alfa tekst." });
      const b = buildArticle({ content: "Beta tekst." });
      const c = buildArticle({ content: "Gamma tekst." });
      const index = new KnowledgeIndex();
      expect(await index.rebuildFrom([a, b])).toMatchObject({
        added: 2,
        updated: 0,
        removed: 0,
        unchanged: 0,
      });

      const result = await index.rebuildFrom([{ ...a }, { ...b, content: "Beta ny." }, c]);
      expect(result).toMatchObject({ added: 1, updated: 1, removed: 0, unchanged: 1, invalid: [] });
      expect(index.search("ny").hits.map((h) => h.articleId)).toEqual([b.id]);

      expect(await index.rebuildFrom([c])).toMatchObject({ removed: 2, unchanged: 1 });
      expect(index.search("alfa").total).toBe(0);
      expect(index.stats()).toMatchObject({ articles: 1 });
      expect(index.fingerprint).toBe(computeFingerprint([c]));
    });

    it("should skip and report invalid articles in a rebuild", async () => {
      const good = buildArticle();
      const index = new KnowledgeIndex();
      const result = await index.rebuildFrom([good, { id: "x", title: 3 } as never]);
      expect(result.added).toBe(1);
      expect(result.invalid).toHaveLength(1);
      expect(result.invalid[0]).toContain("title");
    });

    it("should rebuild from scratch with force and keep the same fingerprint", async () => {
      const articles = [buildArticle({ content: "Alfa." }), buildArticle({ content: "Beta." })];
      const index = new KnowledgeIndex();
      await index.rebuildFrom(articles);
      const before = index.fingerprint;
      expect(await index.rebuildFrom(articles, { force: true })).toMatchObject({ updated: 2, removed: 0 });
      expect(index.fingerprint).toBe(before);
      expect(index.search("beta").total).toBe(1);
    });

    it("should have a fingerprint that follows ids and revisions, independent of order", async () => {
      const a = buildArticle({ updatedAt: new Date("2025-01-01T00:00:00Z") });
      const b = buildArticle({ updatedAt: "2025-02-01T00:00:00Z" });
      const index = await indexWith(a, b);
      expect(index.fingerprint).toBe(computeFingerprint([b, a]));
      // A service can compare with only ids and updatedAt read from the database.
      expect(index.fingerprint).toBe(
        computeFingerprint([
          { id: a.id, updatedAt: a.updatedAt },
          { id: b.id, updatedAt: b.updatedAt },
        ]),
      );
      await index.upsertArticle({ ...a, content: "Ændret.", updatedAt: new Date("2025-03-01T00:00:00Z") });
      expect(index.fingerprint).not.toBe(computeFingerprint([a, b]));
      await index.removeArticle(b.id);
      expect(index.fingerprint).toBe(
        computeFingerprint([{ id: a.id, updatedAt: new Date("2025-03-01T00:00:00Z") }]),
      );
      expect(new KnowledgeIndex().fingerprint).toBe(computeFingerprint([]));
    });
  });

  describe("results", () => {
    it("should highlight the matched words in the snippet and the title", async () => {
      const a = buildArticle({
        title: "Klager over afgørelser",
        content: `${"Indledende tekst om foreningen. ".repeat(20)}\n## Klagefrist\nKlagefristen er 4 uger fra modtagelsen af afgørelsen.`,
      });
      const index = await indexWith(a);
      const hit = index.search("klagefrist afgørelse").hits[0];
      expect(marked(hit)).toEqual(expect.arrayContaining(["Klagefrist", "Klagefristen", "afgørelsen"]));
      expect(hit.snippet).not.toMatch(/[<>#]/);
      expect(hit.titleHighlights.map((r) => hit.title.slice(r.start, r.end))).toEqual(["afgørelser"]);
      for (const h of hit.highlights) expect(h.end).toBeGreaterThan(h.start);
    });

    it("should filter by category and page with limit and offset", async () => {
      const econ = Array.from({ length: 3 }, () =>
        buildArticle({ category: "Økonomi", content: "Budgettet følges op." }),
      );
      const proc = buildArticle({ category: "Procedurer", content: "Budgettet vedtages." });
      const index = await indexWith(...econ, proc);
      expect(index.search("budget").total).toBe(4);
      const filtered = index.search("budget", { category: "Økonomi", limit: 2 });
      expect(filtered.total).toBe(3);
      expect(filtered.hits).toHaveLength(2);
      expect(filtered.hits.every((h) => h.category === "Økonomi")).toBe(true);
      expect(index.search("budget", { category: "Økonomi", limit: 2, offset: 2 }).hits).toHaveLength(1);
      expect(index.search("budget", { category: "Findes ikke" }).total).toBe(0);
      expect(
        (await index.retrieve("budget", { category: "Procedurer", k: 10 })).passages.map((p) => p.articleId),
      ).toEqual([proc.id]);
    });

    it("should page deep results in score order without losing or repeating any", async () => {
      const articles = Array.from({ length: 400 }, (_, i) =>
        buildArticle({
          title: i % 7 === 0 ? "Budget" : `Note ${i}`,
          content: `Budget ${"ord ".repeat(i % 13)}`,
        }),
      );
      const index = new KnowledgeIndex();
      await index.rebuildFrom(articles);
      const all = index.search("budget", { limit: 100, offset: 0 }).hits;
      const pages = [0, 100, 200, 300].flatMap(
        (offset) => index.search("budget", { limit: 100, offset }).hits,
      );
      expect(index.search("budget").total).toBe(400);
      expect(new Set(pages.map((h) => h.articleId)).size).toBe(400);
      for (let i = 1; i < pages.length; i++)
        expect(pages[i - 1].score).toBeGreaterThanOrEqual(pages[i].score);
      expect(pages.slice(0, 100).map((h) => h.articleId)).toEqual(all.map((h) => h.articleId));
      expect(all[0].title).toBe("Budget");
    });

    it("should rank an article with the word in its title above one with it in the body", async () => {
      const body = buildArticle({
        title: "Kontorforhold",
        content: "Husk også kontingent og meget andet om kontoret.",
      });
      const title = buildArticle({
        title: "Kontingent",
        content: "Opkræves i januar med betaling efter 30 dage.",
      });
      const index = await indexWith(body, title);
      expect(index.search("kontingent").hits.map((h) => h.articleId)).toEqual([title.id, body.id]);
    });
  });

  describe("bad input", () => {
    const queries: unknown[] = [
      "",
      "   \n\t ",
      ".*(",
      "[a-z",
      "$ne",
      "x".repeat(10_000),
      "sagsbehandling ".repeat(1_000),
      "\u0000\u0001",
      "🙂🙂",
      undefined,
      null,
      42,
      { $ne: null },
      ["sagsbehandling"],
    ];

    it.each(
      queries.map((q) => [
        typeof q === "string" ? JSON.stringify(q.slice(0, 20)) : String(JSON.stringify(q)),
        q,
      ]),
    )("should answer %s without throwing", async (_label, query) => {
      const index = await indexWith(buildArticle({ content: "Sagsbehandling og frister." }));
      const result = index.search(query);
      expect(Number.isInteger(result.total) && result.total >= result.hits.length).toBe(true);
      const retrieved = await index.retrieve(query);
      expect(Array.isArray(retrieved.passages)).toBe(true);
      expect(result.query.text.length).toBeLessThanOrEqual(MAX_QUERY_LENGTH);
    });

    it("should give no hits for empty, whitespace, regex-only and non-string queries", async () => {
      const index = await indexWith(buildArticle({ content: "Sagsbehandling og frister." }));
      for (const q of ["", "   ", ".*(", "[a-z", undefined, null, 42, { $ne: null }]) {
        expect(index.search(q).total, String(q)).toBe(0);
        expect((await index.retrieve(q)).passages, String(q)).toEqual([]);
      }
    });

    it("should clamp nonsense options instead of failing", async () => {
      const index = await indexWith(buildArticle({ content: "Sagsbehandling." }));
      const odd = { limit: -5, offset: Number.NaN, category: 7 } as never;
      expect(index.search("sagsbehandling", odd).hits).toHaveLength(1);
      expect(
        (await index.retrieve("sagsbehandling", { k: 1e9, minScore: Number.NaN })).passages,
      ).toHaveLength(1);
      expect(index.search("sagsbehandling", null as never).total).toBe(1);
    });
  });
  describe("caches kept between queries", () => {
    it("should answer after edits, removals and rebuilds as an index that never answered before them", async () => {
      const articles = (await sampleArticles()).slice(0, 12);
      const queries = [
        "klagefrist",
        "sagsbehandling frister",
        "generalfors",
        "budget",
        "persondata sletning",
      ];
      const ask = (index: KnowledgeIndex) =>
        queries.flatMap((q) => [
          index.search(q, { limit: 5 }),
          index.search(q, { limit: 3, category: "IT" }),
        ]);
      const retrieved = async (index: KnowledgeIndex) =>
        (await index.retrieve("klagefrist budget sagsbehandling", { k: 8 })).passages;
      const edited = {
        ...articles[0],
        content: `${articles[0].content}\n\nNy klagefrist for sagsbehandling: budget og persondata.`,
      };
      const added = buildArticle({
        content: "Klagefristen for budgettet er kort. Generalforsamlingen vedtager.",
      });
      // the same history for both; `warm` answers queries between the steps (every cache filled), `cold` not
      const steps: Array<(index: KnowledgeIndex) => Promise<unknown>> = [
        (index) => index.rebuildFrom(articles),
        (index) => index.upsertArticle(edited),
        (index) => index.removeArticle(articles[1].id),
        (index) => index.upsertArticle(added),
        (index) => index.rebuildFrom([edited, ...articles.slice(2), added], { force: true }),
        (index) => index.rebuildFrom(articles.slice(3)),
      ];
      const warm = new KnowledgeIndex();
      for (let i = 0; i < steps.length; i++) {
        await steps[i](warm);
        ask(warm);
        await retrieved(warm);
        const cold = new KnowledgeIndex();
        for (const step of steps.slice(0, i + 1)) await step(cold);
        expect(ask(warm)).toEqual(ask(cold));
        expect(await retrieved(warm)).toEqual(await retrieved(cold));
      }
    });

    it("should show an edited article's new text in its snippet", async () => {
      const a = buildArticle({ content: "Klagefristen er fire uger." });
      const index = await indexWith(a);
      expect(index.search("klagefrist").hits[0].snippet).toBe("Klagefristen er fire uger.");
      await index.upsertArticle({ ...a, content: "Klagefristen er nu seks uger." });
      expect(index.search("klagefrist").hits[0].snippet).toBe("Klagefristen er nu seks uger.");
    });
  });
});
