/**
 * Word forms the Snowball stemmer reads apart from the articles' (issue 15, round 10), on a synthetic corpus.
 *
 * Irregular forms: a strong verb's past tense or participle is stemmed by
 * Snowball to a stem of its own ('overskrevet' → 'overskrev', 'foreslog' → 'foreslog'), not the articles' present or
 * passive form's ('overskrives' → 'overskriv'). The Danish dictionary lists such forms with the word they belong
 * to (its `al:` fields), so a question word the index lacks is read as that word when the index has it.
 *
 * Words typed without æøå: the stemmer counts 'aa' as two vowels where 'å' is one, so 'aarlige' stems to 'aar' (a
 * year) while the articles' 'årlige' stems to 'aarl'; a word that is Danish only as written with æøå is read so.
 */
import { describe, expect, it } from "vitest";
import { normaliseWord } from "./search.analyzer";
import { gateFields } from "./search.coverage";
import { dictionaryBases, irregularLemma } from "./search.danish";
import { CHAT_THRESHOLD } from "./search.passage-relevance";
import { analyseQuery } from "./search.query";
import { coverOf, gateRelevanceOf, vocabularyOf } from "./search.test-helpers";

const ARTICLES = [
  "Backup. Serverens backup tages hver nat, og gamle kopier overskrives efter tre måneder.",
  "Referat. Sekretæren skriver referatet, og formanden godkender det.",
  "Generalforsamling. Bestyrelsen foreslår vedtægtsændringer senest fire uger før.",
  "Udlæg. Udlæg skal godkendes af nærmeste leder, og bilaget skal vedlægges.",
  "Ferie. Ferie skal godkendes af lederen i god tid.",
  "Klager. Fristen for at klage er fire uger fra afgørelsen.",
  "Møder. Fristen for at sende dagsordenen er en uge før mødet.",
  "Telefon. Telefonen besvares af sekretariatet i åbningstiden.",
  "Årlig sletterutine. Den årlige sletning af gamle sager sker i januar.",
  "Regnskab. Regnskabsåret følger året, og året afsluttes med revision.",
  "Aktindsigt. Overstreg undtagne oplysninger i en kopi, aldrig i originalen.",
];

const vocabulary = vocabularyOf(ARTICLES);

const conceptOf = (question: string, word: string) =>
  analyseQuery(question, vocabulary).concepts.find((c) => c.word === word);

describe("irregular forms", () => {
  it("should read a strong verb's forms as the verb, also at the end of a compound the dictionary lacks", () => {
    expect(irregularLemma("skrevet")).toBe("skrive");
    expect(irregularLemma("foreslog")).toBe("foreslå");
    expect(irregularLemma("overskrevet")).toBe("overskrive");
    // a word the dictionary knows as it is is not split to find an irregular end ('morgen' + 'en', not 'mor' + …)
    expect(irregularLemma("morgenen")).toBeNull();
    expect(irregularLemma("qxbrtl")).toBeNull();
  });

  it("should search a participle as the articles' present or passive form", () => {
    const c = conceptOf("hvornår bliver backup overskrevet", "overskrevet");
    expect(normaliseWord("overskrevet")).not.toBe(normaliseWord("overskrives"));
    expect(c?.terms[0]).toBe(normaliseWord("overskrives"));
    expect(c?.weights[0]).toBe(1);
    expect(conceptOf("hvem foreslog ændringerne", "foreslog")?.terms[0]).toBe(normaliseWord("foreslår"));
  });

  it("should let the gate pass the passage that holds the verb", () => {
    const q = analyseQuery("hvornår bliver backup overskrevet", vocabulary);
    const cover = coverOf(q.concepts, ARTICLES[0]);
    expect(cover.coverage).toBe(1);
    expect(gateRelevanceOf(gateFields(cover))).toBeGreaterThanOrEqual(CHAT_THRESHOLD);
  });

  it("should leave a form the index has as it is", () => {
    // 'skriver' is indexed (its stem 'skriv'); never re-read
    expect(conceptOf("hvem skriver referatet", "skriver")?.terms[0]).toBe(normaliseWord("skriver"));
  });
});

describe("regular forms the stemmer leaves apart", () => {
  it("should give a form's dictionary words by the dictionary's suffix rules, none for a stem alone", () => {
    expect(dictionaryBases("ugen")).toContain("uge");
    expect(dictionaryBases("fristerne")).toContain("frist");
    expect(dictionaryBases("titlen")).toContain("titel");
    expect(dictionaryBases("qxbrtl")).toEqual([]);
  });

  it("should read a form the index lacks as its dictionary base when the index has that", () => {
    expect(normaliseWord("ugen")).not.toBe(normaliseWord("uge"));
    expect(conceptOf("hvad sker der i ugen før mødet", "ugen")?.terms[0]).toBe(normaliseWord("uge"));
  });
});

describe("verbal nouns", () => {
  it("should read a verbal noun the index lacks as its verb when the index has that", () => {
    // Snowball cuts -else to the verb's stem, never -ning: 'overstregning' stays apart from the articles' 'overstreg'
    expect(normaliseWord("overstregning")).not.toBe(normaliseWord("overstrege"));
    expect(conceptOf("overstregning", "overstregning")?.terms[0]).toBe(normaliseWord("overstrege"));
  });
});

describe("words typed without æøå", () => {
  it("should read a word as its Danish spelling when only that is a Danish word", () => {
    expect(normaliseWord("aarlige")).not.toBe(normaliseWord("årlige"));
    expect(conceptOf("hvornaar er den aarlige sletning", "aarlige")?.terms[0]).toBe(normaliseWord("årlige"));
    // a word Danish as written stays as written
    expect(conceptOf("hvornaar er den aarlige sletning", "sletning")?.terms[0]).toBe(
      normaliseWord("sletning"),
    );
  });
});
