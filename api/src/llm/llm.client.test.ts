import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAI, fakeEmbedding, startFakeOpenAI } from "../testing/fake-openai";
import { createLlmClient } from "./llm.client";
import {
  LlmAbortedError,
  LlmRateLimitedError,
  LlmStreamBrokenError,
  LlmTimeoutError,
  LlmUnavailableError,
} from "./llm.errors";
import type { LlmClientOptions } from "./llm.types";

describe("llm.client", () => {
  let fake: FakeOpenAI;
  const user = [{ role: "user" as const, content: "Hvad er reglerne for ferie?" }];
  const client = (over: Partial<LlmClientOptions> = {}) =>
    createLlmClient({
      apiKey: "sk-test",
      baseURL: fake.baseURL,
      model: "fake-chat",
      embeddingModel: "fake-embed",
      timeoutMs: 5_000,
      firstTokenTimeoutMs: 2_000,
      maxRetries: 0,
      ...over,
    });

  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKey: "sk-test" });
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.reset();
    fake.requests.length = 0;
  });

  it("should stream tokens in order and return the text, finish reason and usage", async () => {
    const reply = "Ferie optjenes løbende [1]. Se også afsnittet om løn [2].";
    fake.setBehaviour({ reply, tokenDelayMs: 2 });
    const tokens: string[] = [];
    const res = await client().streamChat(user, { onToken: (t) => tokens.push(t) });
    expect(tokens.length).toBeGreaterThan(10);
    expect(tokens.join("")).toBe(reply);
    expect(res).toMatchObject({ text: reply, finishReason: "stop" });
    expect(res.usage?.completionTokens).toBe(tokens.length);
    const body = fake.chatRequests()[0].body;
    expect(body).toMatchObject({ model: "fake-chat", stream: true, stream_options: { include_usage: true } });
    expect(body.messages).toEqual(user);
  });

  it("should keep the partial text when aborted mid-stream", async () => {
    fake.setBehaviour({ reply: "a".repeat(300), tokenDelayMs: 10 });
    const ac = new AbortController();
    let seen = "";
    const err = await client()
      .streamChat(user, {
        signal: ac.signal,
        onToken: (t) => {
          seen += t;
          if (seen.length >= 30) ac.abort();
        },
      })
      .catch((e) => e);
    expect(err).toBeInstanceOf(LlmAbortedError);
    expect(err.code).toBe("LLM_ABORTED");
    expect(err.partialText).toBe(seen);
    expect(seen.length).toBeGreaterThanOrEqual(30);
    expect(seen.length).toBeLessThan(300);
  });

  it("should reject at once when the signal is already aborted, without calling the provider", async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(client().streamChat(user, { signal: ac.signal })).rejects.toBeInstanceOf(LlmAbortedError);
    expect(fake.chatRequests()).toHaveLength(0);
  });

  it("should map 429 to LlmRateLimitedError with retry-after and a Danish message", async () => {
    fake.setBehaviour({ failure: { type: "http", status: 429, retryAfterSeconds: 20 } });
    const err = await client({ maxRetries: 2 })
      .streamChat(user)
      .catch((e) => e);
    expect(err).toBeInstanceOf(LlmRateLimitedError);
    expect(err.code).toBe("LLM_RATE_LIMITED");
    expect(err.retryAfterSeconds).toBe(20);
    expect(err.message).toContain("Prøv igen om 20 sekunder");
    // 20 s is longer than maxRetryWaitMs: no retry, fail fast
    expect(fake.chatRequests()).toHaveLength(1);
  });

  it("should retry a short 429 and a 500 before the first token, then succeed", async () => {
    fake.setBehaviour({
      failure: { type: "http", status: 429, retryAfterSeconds: 0.05 },
      failureCount: 1,
      reply: "ok",
    });
    expect((await client({ maxRetries: 2 }).streamChat(user)).text).toBe("ok");
    expect(fake.chatRequests()).toHaveLength(2);

    fake.requests.length = 0;
    fake.setBehaviour({ failure: { type: "http", status: 500 }, failureCount: 2 });
    expect((await client({ maxRetries: 2 }).streamChat(user)).text).toBe("ok");
    expect(fake.chatRequests()).toHaveLength(3);
  });

  it("should map 500 to LlmUnavailableError when retries are used up", async () => {
    fake.setBehaviour({ failure: { type: "http", status: 500 } });
    const err = await client({ maxRetries: 1 })
      .streamChat(user)
      .catch((e) => e);
    expect(err).toBeInstanceOf(LlmUnavailableError);
    expect(err.code).toBe("LLM_UNAVAILABLE");
    expect(err.status).toBe(500);
    expect(err.message).toMatch(/ikke tilgængelig/);
    expect(fake.chatRequests()).toHaveLength(2);
  });

  it("should not retry a 401 (misconfiguration) and report it as unavailable", async () => {
    const err = await client({ apiKey: "wrong", maxRetries: 3 })
      .streamChat(user)
      .catch((e) => e);
    expect(err).toBeInstanceOf(LlmUnavailableError);
    expect(err.status).toBe(401);
    expect(err.retryable).toBe(false);
    expect(fake.chatRequests()).toHaveLength(1);
  });

  it("should report a broken stream with the partial text and never retry after tokens", async () => {
    fake.setBehaviour({
      reply: "Første del af svaret, og så noget mere",
      failure: { type: "broken", afterTokens: 4 },
    });
    const tokens: string[] = [];
    const err = await client({ maxRetries: 3 })
      .streamChat(user, { onToken: (t) => tokens.push(t) })
      .catch((e) => e);
    expect(err).toBeInstanceOf(LlmStreamBrokenError);
    expect(err.code).toBe("LLM_STREAM_BROKEN");
    expect(err.partialText).toBe("Første del a");
    expect(tokens.join("")).toBe("Første del a");
    expect(fake.chatRequests()).toHaveLength(1);
  });

  it("should time out when the provider never answers (first-token timeout)", async () => {
    fake.setBehaviour({ failure: { type: "hang" } });
    const t0 = Date.now();
    const err = await client({ firstTokenTimeoutMs: 200, maxRetries: 2 })
      .streamChat(user)
      .catch((e) => e);
    expect(err).toBeInstanceOf(LlmTimeoutError);
    expect(err.code).toBe("LLM_TIMEOUT");
    expect(err.phase).toBe("first_token");
    expect(Date.now() - t0).toBeLessThan(2_000);
  });

  it("should apply the overall timeout to a stream that stalls after some tokens", async () => {
    fake.setBehaviour({ reply: "abcdefghijkl", failure: { type: "stall", afterTokens: 2 } });
    const err = await client({ timeoutMs: 300, firstTokenTimeoutMs: 200 })
      .streamChat(user)
      .catch((e) => e);
    expect(err).toBeInstanceOf(LlmTimeoutError);
    expect(err.phase).toBe("overall");
    expect(err.partialText).toBe("abcdef");
  });

  it("should apply the first-token timeout when headers arrive but no token follows", async () => {
    fake.setBehaviour({ reply: "abc", failure: { type: "stall", afterTokens: 0 } });
    const err = await client({ firstTokenTimeoutMs: 200 })
      .streamChat(user)
      .catch((e) => e);
    expect(err).toBeInstanceOf(LlmTimeoutError);
    expect(err.phase).toBe("first_token");
    expect(err.partialText).toBe("");
  });

  it("should complete a short non-streamed task", async () => {
    fake.setBehaviour({ reply: "  Ferieregler  " });
    const title = await client().complete([{ role: "user", content: "Giv samtalen en titel" }], {
      maxTokens: 20,
    });
    expect(title).toBe("Ferieregler");
    expect(fake.chatRequests()[0].body).toMatchObject({ max_tokens: 20 });
    expect(fake.chatRequests()[0].body.stream).toBeUndefined();
  });

  it("should embed texts in batches, in input order, as floats", async () => {
    const texts = ["ferie", "løn og pension", "sagsbehandling", "økonomi", "roller"];
    const vectors = await client({ embeddingBatchSize: 2 }).embed(texts);
    expect(vectors).toHaveLength(5);
    vectors.forEach((v, i) => {
      expect(v).toEqual(fakeEmbedding(texts[i]));
    });
    const reqs = fake.embeddingRequests();
    expect(reqs.map((r) => r.body.input)).toEqual([texts.slice(0, 2), texts.slice(2, 4), texts.slice(4)]);
    expect(reqs[0].body).toMatchObject({ model: "fake-embed", encoding_format: "float" });
  });

  it("should refuse to embed without an embedding model", async () => {
    await expect(client({ embeddingModel: undefined }).embed(["x"])).rejects.toBeInstanceOf(
      LlmUnavailableError,
    );
  });

  it("should map an embeddings 429 to LlmRateLimitedError", async () => {
    fake.setBehaviour({ embeddingsFailure: { status: 429, retryAfterSeconds: 30 } });
    await expect(client({ maxRetries: 1 }).embed(["x"])).rejects.toBeInstanceOf(LlmRateLimitedError);
  });
});
