/**
 * Model-written follow-up questions: the request (grounded in the cited articles' titles and headings, in the
 * user's language), the strict parsing and bounds of the reply, and the fallback ([]) on any failure — through
 * the real LLM client and SDK against the fake OpenAI server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLlmClient } from "../../llm/llm.client";
import { type FakeOpenAI, startFakeOpenAI } from "../../testing/fake-openai";
import {
  FOLLOW_UP_MAX_LENGTH,
  FOLLOW_UPS_MODEL_MAX_TOKENS,
  FOLLOW_UPS_PROMPT_MARKER,
  type ModelFollowUpInput,
  parseFollowUps,
  writeFollowUps,
} from "./follow-ups.model";

const QUESTION = "Hvad er klagefristen for en afgørelse?";
const INPUT: ModelFollowUpInput = {
  question: QUESTION,
  answer: "Klagefristen er fire uger [1]. Klagen sendes til sekretariatet [2].",
  language: "da",
  sources: [
    {
      title: "Klager over afgørelser",
      headings: ["Klagefrist", "Hvem behandler klagen", "Genoptagelse", "Aktindsigt i klagesager"],
    },
    { title: "Aktindsigt", headings: ["Frister for svar"] },
  ],
};

describe("follow-ups: parsing the model's reply", () => {
  it("should take up to three plain questions, one per line or as a JSON list, without list marks", () => {
    const lines = "1. Hvem behandler klagen?\n- Kan en sag genoptages?\n\n* Hvad koster aktindsigt?\nEkstra?";
    expect(parseFollowUps(lines, QUESTION)).toEqual([
      "Hvem behandler klagen?",
      "Kan en sag genoptages?",
      "Hvad koster aktindsigt?",
    ]);
    expect(parseFollowUps('["Hvem behandler klagen?", "Kan en sag genoptages?", 7]', QUESTION)).toEqual([
      "Hvem behandler klagen?",
      "Kan en sag genoptages?",
    ]);
    expect(parseFollowUps('"**Hvem behandler klagen?**"', QUESTION)).toEqual(["Hvem behandler klagen?"]);
  });

  it("should drop what is not a short plain question: markup, links, code, too long, no question mark", () => {
    const long = `Hvad ${"meget ".repeat(30)}længe?`;
    expect(long.length).toBeGreaterThan(FOLLOW_UP_MAX_LENGTH);
    const reply = [
      "Her er nogle forslag:",
      "<b>Hvem behandler klagen?</b>",
      "Se [klager](https://example.org)?",
      "Hvad står på https://example.org?",
      "`Hvad er en frist?`",
      "## Hvad med genoptagelse?",
      "<img src=x onerror=alert(1)>?",
      long,
      "Hvad?",
      "Kan en sag genoptages?",
    ].join("\n");
    expect(parseFollowUps(reply, QUESTION)).toEqual(["Kan en sag genoptages?"]);
  });

  it("should drop repeats of the question and of each other", () => {
    const reply = "Hvad er klagefristen for en afgørelse?\nKan en sag genoptages?\nkan en sag genoptages ?";
    expect(parseFollowUps(reply, QUESTION)).toEqual(["Kan en sag genoptages?"]);
    expect(parseFollowUps("", QUESTION)).toEqual([]);
    expect(parseFollowUps("Jeg kan desværre ikke hjælpe.", QUESTION)).toEqual([]);
  });
});

describe("follow-ups: the model call", () => {
  let fake: FakeOpenAI;
  const llm = (timeoutMs = 2_000) =>
    createLlmClient({ apiKey: "k", baseURL: fake.baseURL, model: "m", timeoutMs, maxRetries: 0 });

  beforeAll(async () => {
    fake = await startFakeOpenAI();
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.reset();
    fake.requests.length = 0;
  });

  it("should ask once, non-streamed and small, with the question, answer and cited titles and headings", async () => {
    fake.setFollowUps({ reply: "Hvem behandler klagen?\nKan en sag genoptages?" });
    expect(await writeFollowUps(INPUT, { llm: llm() })).toEqual([
      "Hvem behandler klagen?",
      "Kan en sag genoptages?",
    ]);
    // the fake tells this request apart from answers and titles
    expect(fake.chatRequests()).toHaveLength(0);
    const [req] = fake.followUpRequests();
    expect(fake.followUpRequests()).toHaveLength(1);
    expect(req?.body.stream).toBeUndefined();
    expect(req?.body.max_tokens).toBe(FOLLOW_UPS_MODEL_MAX_TOKENS);
    expect(req?.body.temperature).toBeLessThanOrEqual(0.3);
    const [system, user] = (req?.body.messages ?? []) as Array<{ content: string }>;
    expect(system?.content.startsWith(FOLLOW_UPS_PROMPT_MARKER)).toBe(true);
    expect(system?.content).toContain("på dansk");
    expect(user?.content).toContain(QUESTION);
    expect(user?.content).toContain("Klagefristen er fire uger.");
    expect(user?.content).not.toContain("[1]");
    for (const h of ["Klager over afgørelser", "Genoptagelse", "Aktindsigt", "Frister for svar"]) {
      expect(user?.content).toContain(h);
    }
  });

  it("should ask in the user's language", async () => {
    fake.setFollowUps({ reply: "Who handles the complaint?" });
    const en = { ...INPUT, question: "What is the deadline for a complaint?", language: "en" as const };
    expect(await writeFollowUps(en, { llm: llm() })).toEqual(["Who handles the complaint?"]);
    expect(fake.followUpRequests()[0]?.body.messages[0].content).toContain("på engelsk");
  });

  it("should give [] on a model error, a timeout or an unusable reply (the heading-based ones stay)", async () => {
    fake.setFollowUps({ failure: { type: "http", status: 500 } });
    expect(await writeFollowUps(INPUT, { llm: llm() })).toEqual([]);
    fake.setFollowUps({ failure: null, reply: "Hvem behandler klagen?", delayMs: 1_000 });
    const t0 = Date.now();
    expect(await writeFollowUps(INPUT, { llm: llm(), timeoutMs: 200 })).toEqual([]);
    expect(Date.now() - t0).toBeLessThan(900);
    fake.setFollowUps({ delayMs: 0, reply: "<ul><li>Klagefrist</li></ul>\nSe https://x.dk" });
    expect(await writeFollowUps(INPUT, { llm: llm() })).toEqual([]);
    // a stop (the service closing) ends it at once too
    fake.setFollowUps({ failure: { type: "hang" } });
    const stop = new AbortController();
    const pending = writeFollowUps(INPUT, { llm: llm(), signal: stop.signal });
    stop.abort();
    expect(await pending).toEqual([]);
  });
});
