/**
 * Retrieval that understands Danish, class by class of failure: inflections, related terms (the lexicon),
 * compounds split, joined and by their head, missing æøå, typo correction that never replaces a real Danish word,
 * and the relevance gate that two common words do not pass.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { relevances } from "../knowledge/knowledge.retrieval";
import { isDanishWord, splitCompound } from "./search.danish";
import { KnowledgeIndex } from "./search.index";
import { sampleArticles } from "./search.test-helpers";

const ARTICLES = [
  {
    id: "udstyr",
    title: "IT-udstyr",
    category: "IT",
    content:
      "# IT-udstyr\n\n## Mistet udstyr\n\nMister du din computer, skal du melde det til IT med det samme.\n\n" +
      "## Første dag\n\nDu gennemgår sikkerhedsintroduktionen sammen med IT-ansvarlig og vælger et login.\n",
  },
  {
    id: "klager",
    title: "Klager",
    category: "Sagsbehandling",
    content: "# Klager\n\n## Klagefristen\n\nKlagefristen er fire uger fra modtagelsen af afgørelsen.\n",
  },
  {
    id: "referat",
    title: "Referat",
    category: "Procedurer",
    content: "# Referat\n\n## Referatet\n\nEventuelle dissenser skrives ind i referatet.\n",
  },
  {
    id: "dispensation",
    title: "Dispensation",
    category: "Sagsbehandling",
    content: "# Dispensation\n\nEn dispensation gives af sekretariatschefen; det skal stå i disse sager.\n",
  },
  {
    id: "svar",
    title: "Svar til medlemmer",
    category: "Sagsbehandling",
    content:
      "# Svar til medlemmer\n\n## Tone\n\nVi svarer venligt og klart, også når vi har travlt.\n\n" +
      "## Svartid\n\nSvar senest ti arbejdsdage efter modtagelsen.\n",
  },
  {
    id: "udlaeg",
    title: "Udlæg",
    category: "Økonomi",
    content: "# Udlæg\n\nUdlæg refunderes, når kvitteringen er afleveret inden for 30 dage.\n",
  },
  {
    id: "regnskab",
    title: "Regnskab",
    category: "Økonomi",
    content: "# Regnskab\n\nVi skal gemme regnskabet i fem år. Hver ny sag journaliseres samme dag.\n",
  },
  {
    id: "koersel",
    title: "Kørsel",
    category: "Økonomi",
    content: "# Kørsel\n\nKørsel i egen bil godtgøres efter statens takst.\n",
  },
];

describe("Danish retrieval", () => {
  const index = new KnowledgeIndex();
  beforeAll(async () => {
    await index.rebuildFrom(ARTICLES);
  });
  const first = (q: string) => index.search(q, { limit: 3 }).hits[0]?.articleId;

  it("should find an inflected form (stems)", () => {
    expect(first("klagefristerne")).toBe("klager");
    expect(first("kvitteringerne")).toBe("udlaeg");
  });

  it("should find the article's own term for an everyday synonym (lexicon)", () => {
    expect(first("laptop")).toBe("udstyr");
    expect(first("bærbar")).toBe("udstyr");
  });

  it("should split a compound the index does not have, join a compound written apart, and match a head", () => {
    expect(splitCompound("arbejdslaptop")).toEqual(["arbejd", "laptop"]);
    expect(first("arbejdslaptop")).toBe("udstyr");
    const joined = index.search("sikkerheds introduktionen");
    expect(joined.hits[0]?.articleId).toBe("udstyr");
    // 'frist' is the head of 'klagefristen'
    expect(first("frist")).toBe("klager");
  });

  it("should find an inflected form the stemmer cuts differently, not words sharing its short stem", () => {
    // 'dissens' stems to 'dis', the article's 'dissenser' to 'dissens': the word as written starts the indexed
    // term; the 3-letter stem would start 'dispensation' and 'disse'
    expect(index.search("dissens").hits.map((h) => h.articleId)).toEqual(["referat"]);
  });

  it("should read a question's wording in the articles' terms (lexicon 'means': 'lang tid' asks for a frist)", async () => {
    const top = async (q: string) => (await index.retrieve(q, { k: 3 })).passages[0]?.headingPath;
    expect(await top("hvor lang tid har vi til at svare")).toEqual(["Svartid"]);
    expect(await top("hvor hurtigt skal vi svare")).toEqual(["Svartid"]);
  });

  it("should read a weak verb's past tense or participle as the verb the articles use", () => {
    // Snowball keeps 'gemt' and 'gemte' whole while it cuts the article's 'gemme' to 'gem'
    expect(first("gemt")).toBe("regnskab");
    expect(first("gemte")).toBe("regnskab");
    // a noun in -ist is no form of a verb ('journalist' is not 'journaliseres')
    expect(index.search("journalist").hits).toEqual([]);
  });

  it("should read a word written without æøå as the Danish word it is: no typo, and its stem's letters counted", () => {
    // 'koerer' is 'kører': a real word, never corrected into another word one edit away; its stem
    // 'koer' is three Danish letters ('kør'), too short to start unrelated indexed words ('kørsel')
    const res = index.search("koerer");
    expect(res.query.corrections).toEqual([]);
    expect(res.hits).toEqual([]);
    expect(first("koersel")).toBe("koersel");
  });

  it("should find words written without æøå", () => {
    expect(first("udlaeg")).toBe("udlaeg");
    expect(first("foerste dag")).toBe("udstyr");
  });

  it("should correct a typo but never replace a word that is itself Danish", () => {
    expect(isDanishWord("logik")).toBe(true);
    expect(isDanishWord("logn")).toBe(false);
    expect(index.search("logn").query.corrections).toEqual([{ from: "logn", to: "login" }]);
    // 'logik' is one letter from 'login', but a real word: not corrected, so it finds nothing here
    const real = index.search("logik");
    expect(real.query.corrections).toEqual([]);
    expect(real.hits).toEqual([]);
  });

  it("should correct a typo in an inflection the articles write otherwise (stem against index terms)", () => {
    // 'klagefirst' is three edits from the written 'klagefristen', one from its index term 'klagefrist'
    const res = index.search("klagefirst");
    expect(res.query.corrections).toEqual([{ from: "klagefirst", to: "klagefristen" }]);
    expect(res.hits[0]?.articleId).toBe("klager");
  });
});

describe("the relevance gate on the sample content", () => {
  const index = new KnowledgeIndex();
  beforeAll(async () => {
    await index.rebuildFrom(await sampleArticles());
  });
  // as many candidates as the chat asks for (DEFAULT_RETRIEVE_K)
  const best = async (q: string) => Math.max(0, ...relevances(await index.retrieve(q, { k: 12 })));

  it("should not pass an off-topic question on two common words", async () => {
    for (const q of [
      "Hvad er reglerne for rygning på kontoret?",
      "Hvornår er sekretariatet lukket i påsken?",
      "Hvornår holder sekretariatet sommerfest i år?",
      "Hvad er opskriften på en god lagkage?",
    ]) {
      expect(await best(q), q).toBeLessThan(0.25);
    }
  });

  it("should pass short, inflected and synonym questions the content answers", async () => {
    for (const q of ["Hvad er klagefristen?", "hvem attesterer udlæg", "hvor længe gemmer vi persondata"]) {
      expect(await best(q), q).toBeGreaterThanOrEqual(0.25);
    }
  });
});

describe("a question asked in everyday, English-loan or colloquial words (the lexicon)", () => {
  const index = new KnowledgeIndex();
  beforeAll(async () => {
    await index.rebuildFrom([
      {
        id: "betalinger",
        title: "Attestation af leverandørfakturaer",
        category: "Økonomi",
        content:
          "# Attestation af leverandørfakturaer\n\n## Godkendelse\n\nFakturaer attesteres af den budgetansvarlige, " +
          "før økonomimedarbejderen anviser dem til betaling. Beløbet noteres i økonomisystemet.\n",
      },
      {
        id: "generalforsamling",
        title: "Generalforsamling",
        category: "Procedurer",
        content:
          "# Generalforsamling\n\n## Stemmeret\n\nHvert medlem har én stemme på generalforsamlingen.\n\n" +
          "## Frister\n\nForslag skal være formanden i hænde senest fire uger før generalforsamlingen.\n",
      },
      {
        id: "ansoegninger",
        title: "Rekruttering",
        category: "Personale",
        content:
          "# Rekruttering\n\n## Opbevaring\n\nAnsøgninger fra ansøgere, der ikke blev ansat, slettes efter seks måneder.\n",
      },
    ]);
  });
  const answer = async (q: string) => {
    const res = await index.retrieve(q, { k: 5 });
    const rel = relevances(res);
    const best = rel.indexOf(Math.max(...rel));
    return { article: res.passages[best]?.articleId, relevance: rel[best] ?? 0 };
  };

  it("should find the article's own term and pass the gate (a synonym counts toward the coverage)", async () => {
    for (const [q, article] of [
      ["Hvem approver en invoice?", "betalinger"],
      ["Hvad er deadline for forslag til AGM?", "generalforsamling"],
      ["Hvornår slettes CV'er?", "ansoegninger"],
    ]) {
      const a = await answer(q);
      expect(a.article, q).toBe(article);
      expect(a.relevance, q).toBeGreaterThanOrEqual(0.25);
    }
  });

  it("should read a word the lexicon knows as that word, never as a typo of another ('vote' is no 'noteres')", () => {
    const res = index.search("vote");
    expect(res.query.corrections).toEqual([]);
    expect(res.hits[0]?.articleId).toBe("generalforsamling");
  });

  it("should still decline a question on something else that only shares an everyday word", async () => {
    for (const q of ["Hvad er deadline for at bestille julegaver?", "Hvem approver min nye kontorstol?"]) {
      expect((await answer(q)).relevance, q).toBeLessThan(0.25);
    }
  });
});
