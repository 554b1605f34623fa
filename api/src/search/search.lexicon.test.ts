/**
 * The curated lexicon (lexicon/da.json) by class of entry, each written from the articles' own terms (issue 15,
 * round 15): staff's wording finds the article that uses the official term, and fails to with just that entry
 * taken out of the data (the same index, the same articles, every other entry kept). Small articles of their own.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import lexicon from "./lexicon/da.json";
import type { KnowledgeIndex } from "./search.index";
import { buildArticle } from "./search.test-helpers";

type Lexicon = typeof lexicon;

/** Each article: [id, title, body]; the body's words are the official terms, never the question's. */
const ARTICLES: [string, string, string][] = [
  [
    "faktura",
    "Fakturering af kurser",
    "## Kreditnota\n\nEn udstedt faktura må aldrig rettes. Er den forkert, udstedes en kreditnota for hele beløbet og en ny faktura.",
  ],
  ["fakturaer", "Fakturaer", "## Betaling\n\nEn faktura sendes til kunden med betaling netto 14 dage."],
  [
    "kursus",
    "Kurser",
    "## Tilmelding\n\nTilmelding til et kursus sker på medlemsportalen, og beløbet betales ved tilmeldingen.",
  ],
  [
    "regnskab",
    "Nøgletal",
    "## Egenkapital\n\nEgenkapitalen bør svare til mindst seks måneders faste udgifter.",
  ],
  ["stoerrelse", "Foreningen", "## Størrelse\n\nForeningen er stor: den har 4.000 medlemmer og 30 ansatte."],
  ["it", "IT-opstart", "## Første dag\n\nDu opsætter to-faktor-login med godkendelsesappen på din telefon."],
  ["app", "Udlæg", "## Indsend\n\nTag et billede af kvitteringen med udlægsappen, og indsend udlægget."],
  [
    "vedtaegter",
    "Medlemsportalen",
    "## Dokumenter\n\nForeningens vedtægter ligger på medlemsportalen sammen med referaterne.",
  ],
  [
    "flertal",
    "Flertal",
    "## Generalforsamlingen\n\nVedtægtsændringer kræver to tredjedele af de afgivne stemmer.",
  ],
];

/** The real lexicon, or a copy without one word in its groups or one of its "means" entries. */
function without(entry: { groupWord?: string; means?: string }): Lexicon {
  const copy: Lexicon = JSON.parse(JSON.stringify(lexicon));
  if (entry.groupWord) {
    const word = entry.groupWord;
    expect(copy.groups.some((g) => g.includes(word))).toBe(true); // the entry is in the data
    copy.groups = copy.groups.map((g) => g.filter((w) => w !== word));
  }
  if (entry.means) {
    expect(entry.means in copy.means).toBe(true);
    delete (copy.means as Record<string, string[]>)[entry.means];
  }
  return copy;
}

/** An index over ARTICLES whose query reads `data` as its lexicon (the module loaded afresh). */
async function indexWith(data: Lexicon): Promise<KnowledgeIndex> {
  vi.resetModules();
  vi.doMock("./lexicon/da.json", () => ({ default: data }));
  const { KnowledgeIndex } = await import("./search.index");
  const index = new KnowledgeIndex();
  await index.rebuildFrom(
    ARTICLES.map(([id, title, body]) => buildArticle({ id, title, content: `# ${title}\n\n${body}\n` })),
  );
  return index;
}

const firstHit = (index: KnowledgeIndex, query: string) =>
  index.search(query, { limit: 3 }).hits[0]?.articleId;

afterEach(() => {
  vi.doUnmock("./lexicon/da.json");
  vi.resetModules();
});

describe("the curated lexicon, by class of entry", () => {
  it.each([
    // a verb for the article's noun of another root: 'annullere' a faktura is what the article calls a kreditnota
    ["verb ↔ noun of another root", "Hvordan annullerer jeg en faktura?", "faktura", { means: "annullere" }],
    // staff's everyday word for the official term: a 'buffer' is the article's 'egenkapital'
    ["everyday word ↔ official term", "Hvor stor skal vores buffer være?", "regnskab", { means: "buffer" }],
    // an English word used in Danish offices for the Danish term: 'authenticator' is the 'godkendelsesapp'
    ["loanword ↔ Danish term", "Hvilken authenticator app skal jeg bruge?", "it", { means: "authenticator" }],
  ])(
    "%s: staff's wording ranks the official term's article first, not without the entry",
    async (_, query, id, entry) => {
      expect(firstHit(await indexWith(lexicon), query)).toBe(id);
      expect(firstHit(await indexWith(without(entry)), query)).not.toBe(id);
    },
  );

  it("a 'means' phrase: two words in a row find the compound that names them, not without the entry", async () => {
    // 'ændre vedtægterne' asks for the article's 'vedtægtsændringer' (which has neither word on its own); the article
    // that says 'vedtægter' itself still ranks above it
    const query = "Hvordan kan vi ændre vedtægterne?";
    const ids = async (data: Lexicon) =>
      (await indexWith(data)).search(query, { limit: 5 }).hits.map((h) => h.articleId);
    expect(await ids(lexicon)).toContain("flertal");
    expect(await ids(without({ means: "ændre vedtægterne" }))).not.toContain("flertal");
  });

  it("should read a group both ways, and not search a word's other meanings", async () => {
    const index = await indexWith(lexicon);
    // 'fraværsbesked' and the articles' 'autosvar' are one group: either finds the other's article
    const { relatedTerms } = await import("./search.lexicon");
    expect(relatedTerms("fravaersbesked")).toContain("autosvar");
    expect(relatedTerms("autosvar")).toContain("fravaersbesked");
    // 'gæld' would stem like the articles' 'gælder' (applies): no entry, so "hvad gælder" searches no debt words
    expect(relatedTerms("gaeld")).toEqual([]);
    expect(firstHit(index, "Hvad gælder for tilmelding?")).toBe("kursus");
  });
});
