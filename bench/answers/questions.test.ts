/**
 * Every answer-quality evaluation set (questions.json, questions-<name>.json) must stay true to the sample content:
 * a bench that scores against a wrong expectation measures nothing. Checked against the Markdown files themselves.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { KINDS, mayInspect, readDataset, sampleArticles, setFiles } from "./dataset";

const MIN_ON_TOPIC = 110;
const MIN_OFF_TOPIC = 44;
/** each off-topic group (office topics, general) is about half */
const MIN_PER_OFF_TOPIC_GROUP = 22;
const MIN_PER_KIND = 12;
/** questions whose main (first) acceptable article is each sample article */
const MIN_PER_ARTICLE = 4;
/** off-topic questions sharing words with the content (traps for a lexical match) */
const MIN_SHARING_WORDS = 10;
const LONG_MIN_WORDS = 20;
/**
 * the held-out set is held to the counts issue 15 asks of it; calib4 (round 18) to the 150 + 150 that let the gate's
 * off-topic operating point rest on more than a few dozen examples, each off-topic group about half
 */
const STRICTER: Record<
  string,
  {
    onTopic: number;
    offTopic: number;
    perKind: number;
    perGroup?: number;
    perArticle?: number;
    sharing?: number;
  }
> = {
  "questions-fresh.json": { onTopic: 160, offTopic: 60, perKind: 20 },
  "questions-calib4.json": { onTopic: 150, offTopic: 150, perKind: 18, perGroup: 75 },
  /**
   * round 22's small check against overfitting: written before the round changed code, without reading any failure;
   * measured only (every kind, not every article)
   */
  "questions-new22.json": { onTopic: 25, offTopic: 15, perKind: 1, perGroup: 3, perArticle: 0, sharing: 5 },
  /**
   * round 23's calibration set (staff's everyday wording: verbs for the articles' nouns, synonyms, typos, missing æøå),
   * written before the round changed code, every article at least once
   */
  "questions-calib5.json": { onTopic: 50, offTopic: 20, perKind: 4, perGroup: 10, perArticle: 1, sharing: 5 },
  /** round 23's measure-only check, written the same way as calib5 and never used for tuning */
  "questions-new23.json": { onTopic: 25, offTopic: 12, perKind: 2, perGroup: 6, perArticle: 0, sharing: 3 },
  /**
   * round 24's calibration supplement for the gate: off-topic office questions that share words with the content
   * ("regler", "frist", "sekretariatet", amounts, time expressions), with on-topic questions beside them
   */
  "questions-calib6.json": {
    onTopic: 30,
    offTopic: 50,
    perKind: 3,
    perGroup: 10,
    perArticle: 0,
    sharing: 30,
  },
  /** round 24's measure-only check, written before the round changed code and never used for tuning */
  "questions-new24.json": { onTopic: 25, offTopic: 20, perKind: 3, perGroup: 10, perArticle: 0, sharing: 5 },
  /**
   * round 25's calibration set for the on-topic side (wrongly declined, cited, answer-in-quote): every kind at least
   * 4 times over at least 20 articles, so the quote-side classes are countable; a few off-topic questions beside them
   */
  "questions-calib7.json": { onTopic: 60, offTopic: 10, perKind: 4, perGroup: 5, perArticle: 0, sharing: 5 },
  /** round 25's measure-only check, written before the round changed code and never used for tuning */
  "questions-new25.json": { onTopic: 30, offTopic: 15, perKind: 3, perGroup: 7, perArticle: 0, sharing: 5 },
  /**
   * round 26's calibration set for which article leads: every kind at least 6 times over at least 20 articles, with
   * extra one- and two-word questions and questions whose words stand in several articles
   */
  "questions-calib8.json": { onTopic: 60, offTopic: 10, perKind: 6, perGroup: 5, perArticle: 0, sharing: 5 },
  /** round 26's measure-only check, written before the round changed code and never used for tuning */
  "questions-new26.json": { onTopic: 30, offTopic: 15, perKind: 3, perGroup: 7, perArticle: 0, sharing: 5 },
};
/**
 * Sets written for calibration only: they must not repeat a question of another set (the gate is fitted on them, so
 * a repeated held-out question would leak into the fit, and a repeated calibration question would count twice).
 */
const CALIBRATION_ONLY = [
  "questions-calib4.json",
  "questions-calib5.json",
  "questions-calib6.json",
  "questions-calib7.json",
  "questions-calib8.json",
];
/** the sets held to no repeated question: the calibration-only ones and rounds 25–26's measure-only sets */
const NO_REPEATS = [...CALIBRATION_ONLY, "questions-new25.json", "questions-new26.json"];
const SETS = setFiles().map((file) => ({ name: path.basename(file), ...readDataset(file) }));

const articles = sampleArticles();

/** Lower-cased, æøå folded as people type them without (ae/oe/aa), punctuation gone: "the same words". */
function words(text: string): string {
  return text
    .toLowerCase()
    .replace(/æ/g, "ae")
    .replace(/ø/g, "oe")
    .replace(/å/g, "aa")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

describe.each(SETS)("answer-quality evaluation set $name", ({ name, onTopic, offTopic }) => {
  const sharingMin = STRICTER[name]?.sharing ?? MIN_SHARING_WORDS;
  const min = STRICTER[name] ?? { onTopic: MIN_ON_TOPIC, offTopic: MIN_OFF_TOPIC, perKind: MIN_PER_KIND };
  const perGroup = min.perGroup ?? MIN_PER_OFF_TOPIC_GROUP;

  it("should have enough questions of every kind, over every sample article", () => {
    expect(articles.size).toBe(26);
    expect(onTopic.length).toBeGreaterThanOrEqual(min.onTopic);
    expect(offTopic.length).toBeGreaterThanOrEqual(min.offTopic);
    for (const group of ["office", "general"]) {
      expect(offTopic.filter((q) => q.group === group).length, group).toBeGreaterThanOrEqual(perGroup);
    }
    expect(offTopic.every((q) => q.group === "office" || q.group === "general")).toBe(true);

    const perKind = new Map<string, number>();
    for (const q of onTopic) perKind.set(q.kind, (perKind.get(q.kind) ?? 0) + 1);
    expect([...perKind.keys()].sort()).toEqual([...KINDS].sort());
    for (const kind of KINDS) expect(perKind.get(kind), kind).toBeGreaterThanOrEqual(min.perKind);

    for (const slug of articles.keys()) {
      const main = onTopic.filter((q) => q.articles[0] === slug).length;
      expect(main, slug).toBeGreaterThanOrEqual(min.perArticle ?? MIN_PER_ARTICLE);
    }
  });

  it("should name unique ids and questions", () => {
    const all = [...onTopic, ...offTopic];
    expect(new Set(all.map((q) => q.id)).size).toBe(all.length);
    expect(new Set(all.map((q) => words(q.question))).size).toBe(all.length);
  });

  it.runIf(NO_REPEATS.includes(name))("should repeat no question of another set", () => {
    const elsewhere = new Set<string>();
    for (const other of SETS.filter((o) => o.name !== name)) {
      for (const q of [...other.onTopic, ...other.offTopic]) elsewhere.add(words(q.question));
    }
    const repeated = [...onTopic, ...offTopic]
      .filter((q) => elsewhere.has(words(q.question)))
      .map((q) => q.id);
    expect(repeated).toEqual([]);
  });

  it("should name existing articles and answering sentences that are exact substrings of them", () => {
    for (const q of onTopic) {
      expect(q.articles.length, q.id).toBeGreaterThan(0);
      expect(new Set(q.articles).size, q.id).toBe(q.articles.length);
      for (const slug of q.articles) expect(articles.has(slug), `${q.id}: ${slug}`).toBe(true);
      expect(q.answers.length, q.id).toBeGreaterThan(0);
      for (const sentence of q.answers) {
        const where = q.articles.filter((slug) => articles.get(slug)?.body.includes(sentence));
        expect(where, `${q.id}: "${sentence}" is in none of ${q.articles.join(", ")}`).not.toEqual([]);
      }
      // the main answer is in the main article
      expect(articles.get(q.articles[0])?.body.includes(q.answers[0]), q.id).toBe(true);
    }
  });

  it("should not copy a question from a title or heading", () => {
    const copied = new Set<string>();
    for (const a of articles.values()) for (const h of [a.title, ...a.headings]) copied.add(words(h));
    for (const q of [...onTopic, ...offTopic]) {
      expect(copied.has(words(q.question)), `${q.id}: "${q.question}"`).toBe(false);
    }
  });

  it("should tag each on-topic question with a kind its wording shows", () => {
    for (const q of onTopic) {
      expect(KINDS, q.id).toContain(q.kind);
      if (q.kind === "no-aeoeaa") expect(q.question, q.id).not.toMatch(/[æøåÆØÅ]/);
      if (q.kind === "one-word") expect(q.question, q.id).toMatch(/^\S+$/);
      if (q.kind === "long") {
        expect(q.question.split(/\s+/).length, q.id).toBeGreaterThanOrEqual(LONG_MIN_WORDS);
      }
    }
  });

  it("should list off-topic traps whose shared words really occur in the content", () => {
    const text = [...articles.values()].map((a) => a.body.toLowerCase()).join("\n");
    const sharing = offTopic.filter((q) => (q.shared ?? []).length > 0);
    expect(sharing.length).toBeGreaterThanOrEqual(sharingMin);
    for (const q of sharing) {
      for (const w of q.shared ?? []) expect(text.includes(w.toLowerCase()), `${q.id}: ${w}`).toBe(true);
    }
  });
});

describe("which questions a tuning round may read one by one", () => {
  it("should allow the tuned set and the fresh set's even ids, never its odd ids nor the measure-only set", () => {
    expect(
      [
        "it-3",
        "fresh-4",
        "fresh-3",
        "staff3-002",
        "staff3-001",
        "new22-002",
        "new23-002",
        "new24-002",
        "calib5-001",
        "calib6-001",
        "new25-002",
        "calib7-001",
        "new26-002",
        "calib8-001",
      ].map(mayInspect),
    ).toEqual([true, true, false, false, false, false, false, false, true, true, false, true, false, true]);
  });
});
