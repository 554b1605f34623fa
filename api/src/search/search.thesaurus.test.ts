/**
 * The Danish thesaurus (lexicon/thesaurus-da.txt.gz): a question word the articles do not have is read as its
 * thesaurus synonyms they have, for any corpus (a small synthetic one here; the question words are in no hand
 * list: lexicon/da.json does not have them), without letting a polysemous synonym pass an unrelated question and
 * without "correcting" a word the thesaurus knows into another.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { relevances } from "../knowledge/knowledge.retrieval";
import lexicon from "./lexicon/da.json";
import { normaliseWord } from "./search.analyzer";
import { KnowledgeIndex } from "./search.index";
import { isThesaurusWord, thesaurusWords } from "./search.thesaurus";

const ARTICLES = [
  {
    id: "leverandoerer",
    title: "Nye leverandører",
    category: "Økonomi",
    content:
      "# Nye leverandører\n\n## Oprettelse\n\nEn ny virksomhed oprettes i økonomisystemet af økonomimedarbejderen, " +
      "når kontrakten er underskrevet.\n",
  },
  {
    id: "udvikling",
    title: "Medarbejderudvikling",
    category: "Personale",
    content:
      "# Medarbejderudvikling\n\n## Den årlige samtale\n\nHver ansat har en samtale med sin chef hvert forår.\n",
  },
  {
    id: "kurser",
    title: "Kurser",
    category: "Medlemmer",
    content: "# Kurser\n\n## Priser\n\nMedlemmer får 10 procent rabat på alle kurser.\n",
  },
  {
    id: "rideklub",
    title: "Rideklubben",
    category: "Foreningen",
    content: "# Rideklubben\n\nForeningen ejer to heste, som medlemmerne kan låne.\n",
  },
];

describe("the Danish thesaurus", () => {
  const index = new KnowledgeIndex();
  beforeAll(async () => {
    await index.rebuildFrom(ARTICLES);
  });
  const answer = async (q: string) => {
    const res = await index.retrieve(q, { k: 5 });
    const rel = relevances(res);
    const best = rel.indexOf(Math.max(...rel));
    return { article: res.passages[best]?.articleId, relevance: rel[best] ?? 0 };
  };

  it("should hold the data as the analyser's index terms (rerun api/scripts/thesaurus-build.ts when it changes)", () => {
    expect(thesaurusWords("faktura", normaliseWord("faktura")).synonyms).toContain(normaliseWord("regning"));
    expect(thesaurusWords("firmaer", normaliseWord("firmaer")).synonyms).toContain(
      normaliseWord("virksomhed"),
    );
  });

  it("should read a question word the articles lack as its synonyms they have, and pass the gate", async () => {
    const inLexicon = JSON.stringify(lexicon).toLowerCase();
    for (const [q, word, article] of [
      ["Hvem opretter et nyt firma?", "firma", "leverandoerer"],
      ["Hvornår skal jeg have en snak med chefen?", "snak", "udvikling"],
    ]) {
      expect(inLexicon, word).not.toContain(`"${word}"`); // the thesaurus, not the hand list (as a word of its own)
      const a = await answer(q);
      expect(a.article, q).toBe(article);
      expect(a.relevance, q).toBeGreaterThanOrEqual(0.25);
    }
  });

  it("should decline an unrelated question that only shares a polysemous synonym ('æg' is also an edge: 'rabat')", async () => {
    expect(thesaurusWords("æg", normaliseWord("æg")).synonyms).toContain(normaliseWord("rabat"));
    // 'koster' is the lexicon's 'pris' (the heading "Priser"): a related term beside the synonym is not enough
    for (const q of [
      "Hvor længe skal et æg koge?",
      "Hvor mange æg skal der i en kage?",
      "Hvad koster et æg?",
    ]) {
      expect((await answer(q)).relevance, q).toBeLessThan(0.25);
    }
  });

  it("should never typo-correct a word the thesaurus knows into another word ('hefte' is no 'heste')", () => {
    expect(isThesaurusWord("hefte")).toBe(true);
    expect(index.search("hefte").query.corrections).toEqual([]);
    // a misspelt word still is corrected
    expect(index.search("hestr").query.corrections).toEqual([{ from: "hestr", to: "heste" }]);
  });
});
