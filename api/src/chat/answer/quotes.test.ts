/** Retrieval-only quotes: whole sentences, only relevant passages, one per section, and citations equal to them. */
import { describe, expect, it } from "vitest";
import { answerQuestion } from "./answer.service";
import { passagesToQuote, quoteOf, RETRIEVAL_QUOTE_MAX_CHARS, sentences } from "./quotes";
import type { Passage } from "./types";

const passage = (over: Partial<Passage>): Passage => ({
  articleId: "a",
  title: "Klager",
  headingPath: [],
  text: "Tekst.",
  score: 0.9,
  ...over,
});

describe("quotes", () => {
  it("should split sentences at their ends and at line breaks (list items)", () => {
    expect(sentences("Første. Anden!\n- punkt et\nSidste uden punktum").map((s) => s.trim())).toEqual([
      "Første.",
      "Anden!",
      "- punkt et",
      "Sidste uden punktum",
    ]);
  });

  it("should quote whole sentences, never cutting one mid-way, and the stretch that answers the question", () => {
    const filler = "Her står noget andet om sagsgange i almindelighed. ".repeat(20);
    const text = `${filler}Klagefristen er fire uger fra modtagelsen. Det sikrer, at frister holdes ens for alle.`;
    const q = quoteOf(text, "hvad er klagefristen", 200);
    expect(q.length).toBeLessThanOrEqual(200);
    expect(q).toContain("Klagefristen er fire uger fra modtagelsen.");
    expect(q).toMatch(/[.!?]$/);
    expect(q).not.toContain("…");
    for (const s of sentences(q)) expect(text).toContain(s.trim());
  });

  it("should quote only relevant passages close to the best, one per section, best first", () => {
    const chosen = passagesToQuote([
      passage({ headingPath: ["Frist"], score: 0.6 }),
      passage({ headingPath: ["Frist"], text: "Samme afsnit.", score: 0.95 }),
      passage({ headingPath: ["Behandling"], score: 0.9 }),
      passage({ articleId: "b", score: 0.3 }),
    ]);
    expect(chosen.map((p) => [p.headingPath.join(), p.score])).toEqual([
      ["Frist", 0.95],
      ["Behandling", 0.9],
    ]);
  });

  it("should not quote another article whose evidence is clearly weaker than the best (padding)", () => {
    const chosen = passagesToQuote([
      passage({ headingPath: ["Frist"], score: 0.9 }),
      passage({ articleId: "b", headingPath: ["Andet"], score: 0.75 }),
      passage({ articleId: "c", headingPath: ["Tæt på"], score: 0.88 }),
    ]);
    expect(chosen.map((p) => p.articleId)).toEqual(["a", "c"]);
  });

  it("should not quote another article whose relevance is as high but whose coverage of the question is clearly less (padding)", () => {
    // relevance saturates near 1 for good passages; the coverage still tells the answering article from padding
    const chosen = passagesToQuote([
      passage({ headingPath: ["Frist"], score: 0.97, coverage: 0.8 }),
      passage({ articleId: "b", headingPath: ["Andet"], score: 0.96, coverage: 0.5 }),
      passage({ articleId: "c", headingPath: ["Tæt på"], score: 0.95, coverage: 0.75 }),
    ]);
    expect(chosen.map((p) => p.articleId)).toEqual(["a", "c"]);
  });

  it("should quote another article with close relevance whose sentence answers clearly better, though its coverage is not close", () => {
    // class: the right article is relevant (ranked 2nd-3rd by coverage) but dropped as padding; its sentence answers
    const question = "Hvor lang tid har jeg til at aflevere mine kvitteringer?";
    const relevant = [
      passage({
        title: "Modtagelse",
        headingPath: ["Kvittering"],
        text: "Vi sender en kvittering til medlemmet, når vi modtager en sag.",
        score: 0.97,
        coverage: 0.8,
      }),
      passage({
        articleId: "b",
        title: "Udlæg",
        headingPath: ["Sådan indsender du"],
        text: "Kvitteringer for udlæg skal afleveres senest 30 dage efter købet.",
        score: 0.9,
        coverage: 0.5,
      }),
      passage({
        articleId: "c",
        title: "Bogføring",
        headingPath: ["Arkiv"],
        text: "Kvitteringer arkiveres i økonomisystemet.",
        score: 0.9,
        coverage: 0.5,
      }),
    ];
    const chosen = passagesToQuote(relevant, relevant, 3, question);
    expect(chosen.map((p) => p.articleId)).toEqual(["a", "b"]); // the answer opens with the best passage; c is padding
    // without the question (no sentence evidence) the coverage rule alone decides: b is not quoted
    expect(passagesToQuote(relevant, relevant, 3).map((p) => p.articleId)).toEqual(["a"]);
  });

  it("should quote another article at a clearly lower relevance when one of its sentences holds the question the lead article's hold only apart", () => {
    // class (round 26): the right article is relevant but well below the lead (its short rule against a long section
    // that holds the question's words in different sentences), while its sentence states the whole question
    const question = "Hvem godkender budgettet?";
    const lead = passage({
      title: "Økonomi",
      headingPath: ["Opgaver"],
      text: "Økonomimedarbejderen laver budgetopfølgning hver måned. Godkendte udlæg udbetales med lønnen.",
      score: 0.92,
      coverage: 0.9,
    });
    const right = passage({
      articleId: "b",
      title: "Budget",
      headingPath: ["Vedtagelse"],
      text: "Bestyrelsen godkender budgettet på novembermødet.",
      score: 0.65,
      coverage: 0.7,
    });
    const padding = passage({
      articleId: "c",
      title: "Møder",
      headingPath: ["Mødeplan"],
      text: "Mødeplanen sendes ud i december.",
      score: 0.65,
      coverage: 0.7,
    });
    const relevant = [lead, right, padding];
    expect(passagesToQuote(relevant, relevant, 3, question).map((p) => p.articleId)).toEqual(["a", "b"]);
    // far below the lead (under half its relevance) it is not let in, however well its sentence answers
    const far = [lead, { ...right, score: 0.4 }, padding];
    expect(passagesToQuote(far, far, 3, question).map((p) => p.articleId)).toEqual(["a"]);
  });

  it("should not quote another article for answering better than the first passage when a section of the first passage's article answers as well", () => {
    // class: another article passed as "answers better" than the first passage, while the lead article's neighbouring
    // section states the answer; the other article was padding and pushed that section out
    const question = "Må jeg selv sende en regning til en kunde efter et arrangement?";
    const relevant = [
      passage({
        title: "Fakturering",
        headingPath: ["Arrangementer"],
        text: "Arrangementer faktureres ved tilmeldingen.",
        score: 0.84,
        coverage: 0.55,
      }),
      passage({
        articleId: "b",
        title: "Persondata",
        headingPath: ["Grundlag"],
        text: "Vi må sende oplysninger om en kunde, når det er nødvendigt for en aftale.",
        score: 0.8,
        coverage: 0.4,
      }),
    ];
    const retrieved = [
      ...relevant,
      passage({
        title: "Fakturering",
        headingPath: ["Hvem sender regninger?"],
        text: "Kun bogholderen må sende en regning til en kunde.",
        score: 0.1,
      }),
    ];
    const chosen = passagesToQuote(relevant, retrieved, 3, question);
    expect(chosen.map((p) => [p.articleId, p.headingPath.join()])).toEqual([
      ["a", "Hvem sender regninger?"], // the section that answers opens the answer
      ["a", "Arrangementer"],
    ]);
  });

  it("should quote an admitted second article by its section that answers, not only by the section that got it admitted", () => {
    // class: another article is admitted by the passage closest to the question as a whole (its introduction), while
    // its section stating the answer ranks lower; the introduction was quoted and the answering sentence was not
    const question = "Skal medlemmet betale for en kopi af papirerne?";
    const relevant = [
      passage({
        headingPath: ["Arkiv"],
        text: "Papirerne arkiveres elektronisk.",
        score: 0.96,
        coverage: 0.5,
      }),
      passage({
        articleId: "b",
        title: "Aktindsigt",
        text: "Et medlem kan bede om at se papirerne i sin sag.",
        score: 0.93,
        coverage: 0.5,
      }),
      passage({
        articleId: "b",
        title: "Aktindsigt",
        headingPath: ["Gebyr"],
        text: "Medlemmet skal ikke betale for en kopi af papirerne.",
        score: 0.7,
        coverage: 0.45,
      }),
    ];
    const chosen = passagesToQuote(relevant, relevant, 3, question);
    expect(chosen.map((p) => [p.articleId, p.headingPath.join()])).toEqual([
      ["a", "Arkiv"],
      ["b", "Gebyr"], // in the introduction's place: the admitted article keeps one passage
    ]);
    // when a section of the lead article answers as well, the admitted article keeps the passage that admitted it
    const retrieved = [
      ...relevant,
      passage({
        headingPath: ["Kopier"],
        text: "Medlemmet skal ikke betale for en kopi af papirerne.",
        score: 0.1,
      }),
    ];
    expect(
      passagesToQuote(relevant, retrieved, 3, question).map((p) => [p.articleId, p.headingPath.join()]),
    ).toEqual([
      ["a", "Kopier"],
      ["b", ""],
      ["a", "Arkiv"],
    ]);
  });

  it("should read a sentence with its section's heading: of two sections saying the same, quote the one whose heading names the asked thing", () => {
    // class: the answering section's sentences do not repeat what its heading names, and a neighbour with the same
    // words was quoted instead
    const question = "Er der et gebyr for en kopi af papirerne?";
    const relevant = [
      passage({ headingPath: ["Aktindsigt"], text: "Et medlem kan se sin sag.", score: 0.9 }),
    ];
    const retrieved = [
      ...relevant,
      passage({ headingPath: ["Udlevering"], text: "Papirerne sendes som kopi med posten.", score: 0.1 }),
      passage({ headingPath: ["Gebyr"], text: "Papirerne sendes som kopi uden beregning.", score: 0.1 }),
    ];
    const chosen = passagesToQuote(relevant, retrieved, 2, question);
    expect(chosen.map((p) => p.headingPath.join())).toEqual(["Gebyr", "Aktindsigt"]);
  });

  it("should not fill the answer with a section below the gate that holds no word of the question", () => {
    // class: the lead article's other sections (below the gate) were quoted to reach 3 passages although none of
    // their sentences held anything asked; a passage that passed the gate is kept (the search's synonyms found it)
    const question = "Hvornår skal klagen være modtaget?";
    const relevant = [
      passage({ headingPath: ["Hvordan klager man?"], text: "Klagen sendes til sekretariatet.", score: 0.8 }),
      passage({ headingPath: ["Afgørelse"], text: "Nævnet afgør sagen på et møde.", score: 0.5 }),
    ];
    const retrieved = [
      ...relevant,
      passage({ headingPath: ["Frist"], text: "Klagen skal være modtaget inden fire uger.", score: 0.1 }),
      passage({ headingPath: ["Historik"], text: "Nævnet blev oprettet i 1990.", score: 0.1 }),
    ];
    const chosen = passagesToQuote(relevant, retrieved, 4, question);
    expect(chosen.map((p) => p.headingPath.join())).toEqual(["Frist", "Hvordan klager man?", "Afgørelse"]);
  });

  it("should not read the words of the phrase that asks for a time as what the question is about", () => {
    // class: "hvor længe" asks for a time; cut to a stem, "længe" matched "længere" in a sentence about another rule
    const question = "Hvor længe skal bilag gemmes?";
    const relevant = [passage({ headingPath: [], text: "Denne vejledning handler om arkivet.", score: 0.9 })];
    const retrieved = [
      ...relevant,
      passage({ headingPath: ["Sager"], text: "Sager gemmes ikke længere end 3 år.", score: 0.1 }),
      passage({ headingPath: ["Regnskab"], text: "Bilag gemmes i 5 år.", score: 0.1 }),
    ];
    const chosen = passagesToQuote(relevant, retrieved, 2, question);
    expect(chosen.map((p) => p.headingPath.join())).toEqual(["Regnskab", ""]);
  });

  it("should quote a neighbouring section of the best passage's article although it is below the gate", () => {
    const relevant = [passage({ headingPath: ["Procedure"], score: 0.8 })];
    const retrieved = [
      ...relevant,
      passage({ articleId: "b", headingPath: ["Andet"], score: 0.2 }),
      passage({ headingPath: ["Frist"], text: "Fristen er fire uger.", score: 0.15 }),
      passage({ headingPath: ["Historik"], score: 0.05 }),
    ];
    const chosen = passagesToQuote(relevant, retrieved);
    expect(chosen.map((p) => [p.articleId, p.headingPath.join()])).toEqual([
      ["a", "Procedure"],
      ["a", "Frist"],
    ]);
  });

  it("should let the retrieval-only answer quote the best article's neighbouring section, not weaker articles", async () => {
    const res = await answerQuestion({
      question: "Hvad er klagefristen?",
      history: [],
      retrieve: async () => [
        passage({
          headingPath: ["Hvordan klager man?"],
          text: "Klagen sendes til sekretariatet.",
          score: 0.8,
        }),
        passage({
          articleId: "b",
          title: "Frister",
          headingPath: ["Oversigt"],
          text: "Svar inden ti dage.",
          score: 0.6,
        }),
        passage({ headingPath: ["Klagefristen"], text: "Klagefristen er fire uger.", score: 0.12 }),
      ],
    });
    expect(res.mode).toBe("retrieval");
    expect(res.content).toContain("Klagefristen er fire uger.");
    expect(res.content).not.toContain("Svar inden ti dage.");
    expect(res.citations.map((c) => c.articleId)).toEqual(["a", "a"]);
  });

  it("should store in each citation exactly the text the answer quoted", async () => {
    const long = `${"Indledende sætning om noget helt andet end spørgsmålet. ".repeat(14)}Klagefristen er fire uger.`;
    const res = await answerQuestion({
      question: "Hvad er klagefristen?",
      history: [],
      retrieve: async () => [passage({ text: long, headingPath: ["Klagefristen"] })],
    });
    expect(res.mode).toBe("retrieval");
    expect(res.citations).toHaveLength(1);
    const quoted = res.content
      .split("\n")
      .filter((l) => l.startsWith(">"))
      .map((l) => l.replace(/^> ?/, ""))
      .join("\n")
      .replace(/\\(.)/g, "$1");
    expect(res.citations[0].passage).toBe(quoted);
    expect(quoted).toContain("Klagefristen er fire uger.");
    expect(quoted.length).toBeGreaterThan(600); // longer than the old 600-character citation cut
  });

  describe("the sentence that answers (evidence.ts)", () => {
    const rykker = "Rykkerforløb";
    const filler = (i: number) =>
      `Et medlem, der får en rykker, kan altid kontakte sekretariatet om sin rykker, og sekretariatet svarer medlemmet om rykkeren i sag nummer ${i} efter de almindelige regler for god forvaltning, god tone og den vedtagne politik for henvendelser fra medlemmerne. `;

    it("should quote the sentence that answers even when it comes late in a long section, after sentences that share its words but state no time", () => {
      const dense = (i: number) => `Et spørgsmål om en rykker nummer ${i} kan stilles til os hele dagen. `;
      const neutral = `Sekretariatet ${"behandler alle henvendelser efter de almindelige regler for god forvaltning, ".repeat(6)}og svarer skriftligt. `;
      const text = `${dense(1)}${dense(2)}${dense(3)}${neutral}En rykker sendes 14 dage efter forfald. ${neutral}`;
      expect(text.length).toBeGreaterThan(RETRIEVAL_QUOTE_MAX_CHARS);
      const q = quoteOf(text, "Hvor lang tid går der, før et medlem får en rykker?");
      expect(q).toContain("En rykker sendes 14 dage efter forfald.");
      expect(q.length).toBeLessThanOrEqual(RETRIEVAL_QUOTE_MAX_CHARS);
      for (const s of sentences(q)) expect(text).toContain(s.trim());
    });

    it("should not end a sentence at an abbreviation or an ordinal, so a list item that answers is quoted whole", () => {
      expect(
        sentences(
          "Betalinger over 10.000 kr. godkendes af formanden, jf. reglerne.\n- 1. rykker sendes efter 14 dage.",
        ).map((s) => s.trim()),
      ).toEqual([
        "Betalinger over 10.000 kr. godkendes af formanden, jf. reglerne.",
        "- 1. rykker sendes efter 14 dage.",
      ]);
      const long = `${filler(1)}${filler(2)}${filler(3)}\n- Betalinger over 10.000 kr. godkendes af formanden og noteres i bogføringen.\n${filler(4)}`;
      expect(quoteOf(long, "Hvem godkender betalinger over 10.000 kr.?")).toContain(
        "Betalinger over 10.000 kr. godkendes af formanden og noteres i bogføringen.",
      );
    });

    /** The best article's neighbours share the topic; the section that answers ranks last. */
    const reminderPassages = () => [
      passage({
        headingPath: [rykker, "Udelukkelse"],
        text: "Et medlem i restance kan udelukkes efter en rykker.",
        score: 0.95,
      }),
      passage({
        headingPath: ["Beregning"],
        text: "Kontingentet for et medlem beregnes af lønsummen.",
        score: 0.9,
      }),
      passage({
        headingPath: ["Opkrævning"],
        text: "Medlemmet får en faktura og en rykker ved behov.",
        score: 0.85,
      }),
      passage({ headingPath: [rykker], text: "1. rykker sendes 14 dage efter forfald.", score: 0.3 }),
    ];

    it("should quote the best article's section holding the answering sentence, not neighbours sharing its topic", () => {
      const retrieved = reminderPassages();
      const relevant = retrieved.filter((p) => p.score >= 0.25);
      const question = "Hvor lang tid går der, før et medlem får første rykker?";
      const chosen = passagesToQuote(relevant, retrieved, 3, question);
      expect(chosen[0].headingPath).toEqual([rykker, "Udelukkelse"]); // the answer still opens with the best passage
      expect(chosen.map((p) => p.headingPath.join(" › "))).toContain(rykker);
      expect(chosen).toHaveLength(3);
    });

    it("should open the answer with the best article's section that answers, never with another article's", () => {
      // class: the first retrieved section of the article search ranks first (its introduction, a neighbour) opened
      // the answer and the answering sentence came second or third
      const question = "Hvornår sendes referatet til bestyrelsen?";
      const relevant = [
        passage({ headingPath: [], text: "Referatet skrives af sekretariatet.", score: 0.96 }),
        passage({
          articleId: "b",
          headingPath: ["Bestyrelsen"],
          text: "Referatet sendes til bestyrelsen inden 5 dage.",
          score: 0.95,
          coverage: 1,
        }),
        passage({
          headingPath: ["Udsendelse"],
          text: "Referatet sendes til bestyrelsen inden 3 dage.",
          score: 0.9,
        }),
      ];
      const chosen = passagesToQuote(relevant, relevant, 3, question);
      expect(chosen.map((p) => [p.articleId, p.headingPath.join()])).toEqual([
        ["a", "Udsendelse"],
        ["b", "Bestyrelsen"],
        ["a", ""],
      ]);
    });

    it("should let the retrieval-only answer quote that section and store exactly what it quoted", async () => {
      const res = await answerQuestion({
        question: "Hvor lang tid går der, før et medlem får første rykker?",
        history: [],
        retrieve: async () => reminderPassages(),
      });
      expect(res.content).toContain("1. rykker sendes 14 dage efter forfald.");
      expect(res.citations.map((c) => c.passage)).toContain("1. rykker sendes 14 dage efter forfald.");
    });
  });
});
