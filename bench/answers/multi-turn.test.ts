/**
 * The multi-turn evaluation set (questions-followups.json) must stay true to the sample content, like the
 * single-question sets (questions.test.ts): conversations of 2–3 turns, every class represented in both halves, and
 * each on-topic last turn's answering sentences exact substrings of its acceptable articles.
 */
import { describe, expect, it } from "vitest";
import { isHeldOut, sampleArticles, setFile, setFiles } from "./dataset";
import { CLASSES, OFF_TOPIC_CLASSES, readConversations } from "./multi-turn";

const FILE = setFile("followups");
const { conversations } = readConversations(FILE);
const articles = sampleArticles();

const MIN_CONVERSATIONS = 60;
/** per class and half (even ids calibrate, odd are held out) */
const MIN_PER_CLASS_AND_HALF = 4;

describe("multi-turn evaluation set questions-followups.json", () => {
  it("should hold enough conversations of 2–3 turns in every class, in both halves", () => {
    expect(conversations.length).toBeGreaterThanOrEqual(MIN_CONVERSATIONS);
    for (const c of conversations) {
      expect(c.turns.length, c.id).toBeGreaterThanOrEqual(2);
      expect(c.turns.length, c.id).toBeLessThanOrEqual(3);
      expect((CLASSES as readonly string[]).includes(c.class), c.id).toBe(true);
    }
    for (const k of CLASSES) {
      for (const heldOut of [false, true]) {
        const n = conversations.filter((c) => c.class === k && isHeldOut(c.id) === heldOut).length;
        expect(n, `${k} ${heldOut ? "odd" : "even"}`).toBeGreaterThanOrEqual(MIN_PER_CLASS_AND_HALF);
      }
    }
  });

  it("should name unique ids and conversations", () => {
    expect(new Set(conversations.map((c) => c.id)).size).toBe(conversations.length);
    expect(new Set(conversations.map((c) => c.turns.join("\n"))).size).toBe(conversations.length);
  });

  it("should give on-topic last turns answering sentences from their articles, and off-topic ones none", () => {
    for (const c of conversations) {
      if (OFF_TOPIC_CLASSES.includes(c.class)) {
        expect(c.articles, c.id).toBeUndefined();
        continue;
      }
      expect(c.articles?.length, c.id).toBeGreaterThan(0);
      expect(c.answers?.length, c.id).toBeGreaterThan(0);
      for (const slug of c.articles ?? []) expect(articles.has(slug), `${c.id}: ${slug}`).toBe(true);
      for (const sentence of c.answers ?? []) {
        const where = (c.articles ?? []).filter((slug) => articles.get(slug)?.body.includes(sentence));
        expect(where, `${c.id}: "${sentence}"`).not.toEqual([]);
      }
    }
  });

  it("should put expletive 'det' in the last turn of the expletive classes", () => {
    for (const c of conversations.filter((x) => x.class.startsWith("expletive"))) {
      expect(/\b(det|it)\b/i.test(c.turns[c.turns.length - 1]), c.id).toBe(true);
    }
  });

  it("should not be read as a single-question set", () => {
    expect(setFiles()).not.toContain(FILE);
  });
});
