import { beforeAll, describe, expect, it } from "vitest";
import { KnowledgeIndex } from "./search.index";
import { sampleArticles } from "./search.test-helpers";

/** Danish questions staff ask, and the sample article that answers them. */
const QUESTIONS: [string, string][] = [
  ["Hvad er klagefristen?", "sagsbehandling/klager-over-afgoerelser.md"],
  ["hvem attesterer udlæg", "oekonomi/udlaeg-og-refusion.md"],
  ["hvornår skal et databrud anmeldes til Datatilsynet", "procedurer/databrud.md"],
  ["kontingent rykker restance", "oekonomi/kontingent.md"],
  ["hvordan godkendes referatet", "procedurer/dagsorden-og-referat.md"],
  ["hvem har tegningsret", "roller/formand.md"],
  ["indkaldelse til generalforsamling", "procedurer/generalforsamling.md"],
  ["hvad gør jeg første dag med IT", "it/it-opstart-for-nye-medarbejdere.md"],
  ["journalisering af telefonnotat", "sagsbehandling/journalisering.md"],
  ["beløbsgrænser for betalinger", "oekonomi/attestation-og-godkendelse-af-betalinger.md"],
  ["hvor længe gemmer vi persondata", "procedurer/sletning-af-persondata.md"],
];

describe("KnowledgeIndex relevance on the sample content", () => {
  const index = new KnowledgeIndex();
  beforeAll(async () => {
    const result = await index.rebuildFrom(await sampleArticles());
    expect(result.added).toBeGreaterThanOrEqual(24);
  });

  it.each(QUESTIONS)("should rank the right article first for '%s'", (question, expected) => {
    const result = index.search(question, { limit: 5 });
    expect(result.hits[0]?.articleId, JSON.stringify(result.hits.map((h) => h.articleId))).toBe(expected);
  });

  it.each(QUESTIONS)(
    "should retrieve a passage of the right article first for '%s'",
    async (question, expected) => {
      const { passages, mode } = await index.retrieve(question, { k: 3 });
      expect(mode).toBe("bm25");
      expect(passages[0]?.articleId, JSON.stringify(passages.map((p) => p.id))).toBe(expected);
    },
  );

  it("should retrieve the klagefrist section with its heading path for the klagefrist question", async () => {
    const { passages } = await index.retrieve("Hvad er klagefristen?", { k: 1 });
    expect(passages[0].headingPath).toEqual(["Klagefristen"]);
    expect(passages[0].text).toContain("4 uger");
    expect(passages[0].score).toBeGreaterThan(0);
  });

  it("should find the same articles for sagsbehandling, sagsbehandlingen and sagsbehandlinger", () => {
    const ids = (q: string) => new Set(index.search(q, { limit: 100 }).hits.map((h) => h.articleId));
    const base = ids("sagsbehandling");
    expect(base.size).toBeGreaterThanOrEqual(5);
    // Every article with an inflected form is found by the base form, and vice versa.
    for (const id of ids("sagsbehandlingen")) expect(base.has(id), id).toBe(true);
    for (const id of ids("sagsbehandlinger")) expect(base.has(id), id).toBe(true);
    expect(ids("sagsbehandlingen").has("sagsbehandling/frister-i-sagsbehandlingen.md")).toBe(true);
  });

  it("should find the generalforsamling article for the typo 'generalforsmaling' and correct it", () => {
    const result = index.search("generalforsmaling");
    expect(result.hits[0].articleId).toBe("procedurer/generalforsamling.md");
    expect(result.query.corrections).toEqual([{ from: "generalforsmaling", to: "generalforsamling" }]);
  });

  it("should find sagsbehandling articles for the typo 'sagsbehandlnig'", () => {
    const result = index.search("sagsbehandlnig");
    expect(result.total).toBeGreaterThanOrEqual(5);
    expect(result.hits[0].articleId.startsWith("sagsbehandling/")).toBe(true);
  });

  it("should keep results within a category when asked", () => {
    const result = index.search("frist", { category: "Økonomi", limit: 50 });
    expect(result.total).toBeGreaterThan(0);
    expect(result.hits.every((h) => h.category === "Økonomi")).toBe(true);
  });
});
