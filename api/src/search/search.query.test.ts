import { describe, expect, it } from "vitest";
import { normaliseWord } from "./search.analyzer";
import { KnowledgeIndex } from "./search.index";
import {
  analyseQuery,
  cutQuery,
  MAX_HIGHLIGHT_EXPANSIONS,
  MAX_QUERY_LENGTH,
  MAX_QUERY_TERMS,
  TERM_END,
} from "./search.query";
import { buildArticle } from "./search.test-helpers";
import { Vocabulary } from "./search.vocabulary";

async function indexWith(...articles: ReturnType<typeof buildArticle>[]) {
  const index = new KnowledgeIndex();
  for (const a of articles) await index.upsertArticle(a);
  return index;
}

function vocabularyOf(content: string): Vocabulary {
  const v = new Vocabulary();
  v.count({ title: "", category: "", tags: [], content }, +1);
  return v;
}

const whole = (word: string) => `${normaliseWord(word)}${TERM_END}`;

describe("cutQuery", () => {
  it("should collapse whitespace and trim", () => {
    expect(cutQuery("  klage \n\t frist  ")).toEqual({ text: "klage frist", truncated: false });
  });

  it("should cut a long query at the last word boundary and say so", () => {
    const words = Array.from({ length: 100 }, (_, i) => `ord${i}`).join(" ");
    const { text, truncated } = cutQuery(words);
    expect(truncated).toBe(true);
    expect(text.length).toBeLessThanOrEqual(MAX_QUERY_LENGTH);
    expect(words.startsWith(`${text} `)).toBe(true); // whole words only
  });

  it("should cut at a word boundary only when it keeps more than half of the limit", () => {
    expect(cutQuery(`${"x".repeat(200)} ${"y".repeat(200)}`).text).toBe("x".repeat(200));
    const long = `${"x".repeat(100)} ${"y".repeat(300)}`;
    expect(cutQuery(long)).toEqual({ text: long.slice(0, MAX_QUERY_LENGTH), truncated: true });
  });
});

describe("analyseQuery", () => {
  const vocabulary = vocabularyOf(
    "Sagsbehandling af klager. Indsigt og indsigtsanmodninger. Generalforsamlingen holdes. Samme dag. Dagsordenen.",
  );

  it("should give no terms for non-strings, blank, stop-word-only and symbol-only queries", () => {
    for (const q of [undefined, null, 42, { $ne: null }, ["klager"], "", "   ", "og i at", ".*(", "🙂"]) {
      const res = analyseQuery(q, vocabulary);
      expect(res.oramaTerms, String(q)).toEqual([]);
      expect(res.info.terms, String(q)).toEqual([]);
    }
    expect(analyseQuery(42, vocabulary).info.text).toBe("");
  });

  it("should search an indexed word as a whole word and highlight it", () => {
    const res = analyseQuery("dag", vocabulary);
    expect(res.oramaTerms).toEqual([whole("dag")]); // short: not a prefix of 'dagsorden'
    expect(res.info.terms).toEqual([normaliseWord("dag")]);
    expect(res.highlight).toEqual(new Set([normaliseWord("dag")]));
  });

  it("should also search a written word of five or more letters as the start of compounds", () => {
    // the stem ('inds') is too short a prefix: the word as written is the compound prefix
    const res = analyseQuery("indsigt", vocabulary);
    // the question's own word at full weight; related terms and compounds ending in it follow at lower weights
    expect(res.oramaTerms.slice(0, 2)).toEqual([whole("indsigt"), "indsigt"]);
    expect(res.weights.slice(0, 2)).toEqual([1, 1]);
    expect(res.weights.slice(2).every((w) => w < 1)).toBe(true);
    expect(res.highlight).toEqual(new Set([normaliseWord("indsigt"), normaliseWord("indsigtsanmodninger")]));
    // when the stem is the word itself, the prefix covers the whole word too
    const stemIsWord = analyseQuery("sagsbehandling", vocabulary);
    expect(stemIsWord.oramaTerms).toEqual(["sagsbehandling"]);
  });

  it("should search an unknown start of an indexed word as a prefix (someone still typing)", () => {
    const res = analyseQuery("generalfors", vocabulary);
    // the word as written is the prefix (its stem 'generalfor' may be cut differently from the indexed words')
    expect(res.oramaTerms).toEqual(["generalfors"]);
    expect(res.info.corrections).toEqual([]);
    expect(res.highlight).toContain(normaliseWord("generalforsamlingen"));
  });

  it("should read two words in a row the lexicon knows as a pair, also after a word with the same stem", () => {
    const v = vocabularyOf("Svar senest inden fristen. Det tager lang tid.");
    const conceptOf = (q: string, word: string) => analyseQuery(q, v).concepts.find((c) => c.word === word);
    expect(conceptOf("hvor lang tid", "lang")?.terms).toContain(normaliseWord("frist"));
    // 'tidligere' stems to 'tid' as 'tid' does: the pair 'lang tid' is still read
    expect(conceptOf("tidligere ansat, hvor lang tid", "lang")?.terms).toContain(normaliseWord("frist"));
  });

  it("should correct a typo to the closest indexed word and say so", () => {
    const res = analyseQuery("sagsbehandlnig", vocabulary);
    expect(res.oramaTerms).toEqual([whole("sagsbehandling")]);
    expect(res.info.corrections).toEqual([{ from: "sagsbehandlnig", to: "sagsbehandling" }]);
  });

  it("should leave out an unknown word with no close match, and repeated words", () => {
    const res = analyseQuery("klager xqzwv klager klagerne", vocabulary);
    expect(res.info.terms).toEqual([normaliseWord("klager")]);
    expect(res.oramaTerms).toEqual([whole("klager")]);
  });

  it("should split an unknown compound into two things, not a word starting with a stop word", () => {
    // 'sommerfest' is a party in summer: two concepts; 'overhovedet' is 'over' + 'hovedet' to a splitter, but
    // 'over' is a stop word: one unknown word, not a stop word counted as a telling word no article has
    expect(analyseQuery("sommerfest", vocabulary).concepts.map((c) => c.word)).toEqual(["sommer", "fest"]);
    expect(analyseQuery("overhovedet", vocabulary).concepts.map((c) => c.word)).toEqual(["overhovedet"]);
  });

  it("should split an inflected form only where the word it is a form of splits too", () => {
    const words = (q: string) => analyseQuery(q, vocabulary).concepts.map((c) => c.word);
    // 'forskellen' is 'forskel' with its article, no compound, though 'forsk' + 'ellen' are two Danish words;
    // 'udbetalingen' is no 'udbetal' + 'ingen', 'medlemmerne' no 'medlemm' + 'erne'
    expect(words("forskellen")).toEqual(["forskellen"]);
    expect(words("udbetalingen")).toEqual(["udbetalingen"]);
    expect(words("medlemmerne")).toEqual(["medlemmerne"]);
    // an inflected compound still splits where its base form does, also at a head shorter than a compound's
    // own shortest ('arbejdsdag': arbejd(s) + dag)
    expect(words("mødelokalet")).toEqual(["møde", "lokalet"]);
    expect(words("arbejdsdagene")).toEqual(["arbejd", "dagene"]);
  });

  it("should read a compound's part in an inflected form as the form the articles use (round 23)", () => {
    // 'udmeldelsesvarslet' is no word of the articles: its parts are 'udmeldelse' and 'varslet', the definite form
    // of the articles' 'varsel'; read as written ('varsl') no article held the part
    const v = vocabularyOf(
      "Udmeldelse skal ske skriftligt med 3 måneders varsel til udgangen af et kalenderår.",
    );
    const concepts = analyseQuery("Hvad er udmeldelsesvarslet?", v).concepts;
    expect(concepts.map((c) => c.word)).toEqual(["udmeldelse", "varslet"]);
    expect(concepts[1].terms).toContain(normaliseWord("varsel"));
  });

  it("should read a verb and its particle written apart as the joined verb the articles use", () => {
    const v = vocabularyOf("Sagsbehandleren modtager ikke gaver og indsender udlæg.");
    const tage = analyseQuery("må jeg tage imod en gave", v);
    // 'imod' is no word of its own here: 'tage imod' is 'modtage'
    expect(tage.concepts.map((c) => c.word)).toEqual(["tage", "gave"]);
    expect(tage.concepts[0].terms).toContain(normaliseWord("modtage"));
    expect(analyseQuery("sender ind", v).concepts[0].terms).toContain(normaliseWord("indsender"));
    // a preposition after a verb is not a particle of a joined verb ('arbejde med' is no 'medarbejde')
    const [arbejder] = analyseQuery(
      "arbejder med",
      vocabularyOf("Vi arbejder. Hver medarbejder har en leder."),
    ).concepts;
    const i = arbejder.terms.indexOf(normaliseWord("medarbejder"));
    expect(i < 0 || arbejder.weights[i] < 1).toBe(true); // at most a compound ending in it, not the word itself
  });

  it("should search at most MAX_QUERY_TERMS terms", () => {
    const words = Array.from(
      { length: MAX_QUERY_TERMS + 5 },
      (_, i) => `ord${"abcdefghijklmnopqrstuvwxyz"[i]}`,
    );
    const res = analyseQuery(words.join(" "), vocabularyOf(words.join(" ")));
    expect(res.info.terms).toHaveLength(MAX_QUERY_TERMS);
  });

  it("should highlight at most MAX_HIGHLIGHT_EXPANSIONS expansions of a prefix", () => {
    const many = Array.from({ length: MAX_HIGHLIGHT_EXPANSIONS + 50 }, (_, i) => `budget${i}`).join(" ");
    const res = analyseQuery("budge", vocabularyOf(many));
    expect(res.highlight.size).toBe(MAX_HIGHLIGHT_EXPANSIONS);
  });
});

describe("KnowledgeIndex query matching", () => {
  it("should match whole short words, not every word that starts with them", async () => {
    const day = buildArticle({ content: "Svar samme dag." });
    const agenda = buildArticle({ content: "Dagsordenen sendes ud." });
    const index = await indexWith(day, agenda);
    expect(index.search("dag").hits.map((h) => h.articleId)).toEqual([day.id]);
  });

  it("should let a written word of five or more letters find compounds that start with it", async () => {
    const compound = buildArticle({ content: "Indsigtsanmodninger besvares inden en måned." });
    const index = await indexWith(compound);
    expect(index.search("indsigt").hits.map((h) => h.articleId)).toEqual([compound.id]);
  });

  it("should match the start of a word while someone is typing", async () => {
    const a = buildArticle({ content: "Generalforsamlingen holdes i april." });
    const index = await indexWith(a);
    expect(index.search("generalfors").hits.map((h) => h.articleId)).toEqual([a.id]);
  });
  it("should cut a very long query and say so, still finding its first words", async () => {
    const index = await indexWith(buildArticle({ content: "Sagsbehandling og frister." }));
    const result = index.search(`sagsbehandling ${"x".repeat(10_000)}`);
    expect(result.query.truncated).toBe(true);
    expect(result.query.text.length).toBeLessThanOrEqual(MAX_QUERY_LENGTH);
    expect(result.total).toBe(1);
  });
});
