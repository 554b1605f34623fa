import { describe, expect, it } from "vitest";
import { KnowledgeIndex } from "./search.index";
import { buildArticle } from "./search.test-helpers";

/**
 * Class of failure: the article whose words are spread over many sections ranked above the article with a section
 * about exactly the question (recall@1 on bench/answers). An article is also ranked by its best section.
 */
const scattered = buildArticle({
  id: "scattered",
  title: "Persondata i sekretariatet",
  content: [
    "# Persondata i sekretariatet",
    "## Opbevaring",
    "Sager gemmes i journalsystemet, så længe sagen kører. Vi gemmer kun det nødvendige.",
    "## Medarbejdere",
    "Når en medarbejder fratræder, afleverer medarbejderen nøgler og adgangskort.",
    "## Systemer",
    "Hver medarbejder har en postkasse og et drev. Postkassen bruges til mails fra medlemmer.",
    "## Tidsfrister",
    "Hvor længe en sag tager, afhænger af sagen. Længe ventende sager prioriteres.",
  ].join("\n\n"),
});
const focused = buildArticle({
  id: "focused",
  title: "IT for nye medarbejdere",
  content: [
    "# IT for nye medarbejdere",
    "## Første dag",
    "Du får udleveret en bærbar computer og logger ind med din nye adgangskode.",
    "## Til sidst",
    "Når du fratræder, gemmes din postkasse så længe som 30 dage, og slettes derefter.",
  ].join("\n\n"),
});

const fillers = ["Budget", "Kontingent", "Referat"].map((title, i) =>
  buildArticle({
    id: `filler-${i}`,
    title,
    content: `# ${title}\n\n## Om ${title.toLowerCase()}\n\nSekretariatet følger op hvert kvartal og skriver til bestyrelsen.\n`,
  }),
);

describe("KnowledgeIndex search: the article with a section that answers comes first", () => {
  it("should rank the article whose one section covers the question above the one that covers it piecemeal", async () => {
    const index = new KnowledgeIndex();
    await index.rebuildFrom([scattered, focused, ...fillers]);
    const hits = index
      .search("hvor længe gemmes min postkasse når jeg fratræder")
      .hits.map((h) => h.articleId);
    expect(hits).toEqual(["focused", "scattered"]);
  });

  it("should keep ranking by the whole article when no section stands out (one word)", async () => {
    const index = new KnowledgeIndex();
    await index.rebuildFrom([scattered, focused, ...fillers]);
    const hits = index.search("postkasse").hits.map((h) => h.articleId);
    expect(hits).toContain("focused");
    expect(hits).toContain("scattered");
  });
});

describe("KnowledgeIndex retrieve: passages know where their article ranks by search's rule", () => {
  it("should rank the article with the answering section first among the passages' articles", async () => {
    const index = new KnowledgeIndex();
    await index.rebuildFrom([scattered, focused, ...fillers]);
    const question = "hvor længe gemmes min postkasse når jeg fratræder";
    expect(index.search(question).hits[0].articleId).toBe("focused");
    const { passages } = await index.retrieve(question, { k: 6 });
    const first = passages.filter((p) => p.articleRank === 1);
    expect(first.length).toBeGreaterThan(0);
    expect(first.every((p) => p.articleId === "focused")).toBe(true);
    expect(passages.filter((p) => p.articleId === "scattered").every((p) => (p.articleRank ?? 99) > 1)).toBe(
      true,
    );
  });
});
