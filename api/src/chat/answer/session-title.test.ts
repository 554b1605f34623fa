import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLlmClient } from "../../llm/llm.client";
import { type FakeOpenAI, startFakeOpenAI } from "../../testing/fake-openai";
import { cleanSessionTitle, fallbackSessionTitle, suggestSessionTitle } from "./session-title";

describe("session-title", () => {
  let fake: FakeOpenAI;
  const llm = () =>
    createLlmClient({ apiKey: "k", baseURL: fake.baseURL, model: "m", timeoutMs: 2_000, maxRetries: 0 });

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

  it("should let the LLM name the session, cleaned", async () => {
    fake.setBehaviour({ reply: '"Ferieregler for deltidsansatte."\nEkstra linje' });
    const title = await suggestSessionTitle("Hvordan optjener deltidsansatte ferie?", { llm: llm() });
    expect(title).toBe("Ferieregler for deltidsansatte");
    const body = fake.chatRequests()[0].body;
    expect(body.stream).toBeUndefined();
    expect(body.messages[1].content).toBe("Hvordan optjener deltidsansatte ferie?");
  });

  it("should fall back to the shortened question without an LLM or when it fails", async () => {
    const q =
      "Hvordan behandler vi en klage over en afgørelse, når fristen allerede er overskredet med flere dage?";
    expect(await suggestSessionTitle(q)).toBe(fallbackSessionTitle(q));
    expect(fallbackSessionTitle(q).length).toBeLessThanOrEqual(61);
    fake.setBehaviour({ failure: { type: "http", status: 500 } });
    expect(await suggestSessionTitle(q, { llm: llm() })).toBe(fallbackSessionTitle(q));
    expect(fallbackSessionTitle("   ")).toBe("Ny chat");
  });

  it("should strip Markdown, HTML and a 'Titel:' prefix", () => {
    expect(cleanSessionTitle("Titel: **Løn <b>og</b> pension**.")).toBe("Løn og pension");
  });

  it("should never give a title HTML, also when the cleaning removes characters between `<` and a letter", () => {
    for (const raw of [
      "<*script*>alert(1)",
      "<_img src=x onerror=alert(1)>",
      "<`svg/onload=alert(1)>",
      "<scr<script>ipt>alert(1)</script>",
      "&lt;script&gt;alert(1)",
      "<!-- x --><#iframe>",
    ]) {
      expect(cleanSessionTitle(raw), raw).not.toMatch(/<[a-z/!?&]/i);
      expect(fallbackSessionTitle(raw), raw).not.toMatch(/<[a-z/!?&]/i);
    }
  });
});
