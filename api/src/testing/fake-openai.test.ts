import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAI, fakeEmbedding, startFakeOpenAI } from "./fake-openai";

describe("fake-openai", () => {
  let fake: FakeOpenAI;
  let sdk: OpenAI;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKey: "sk-test" });
    sdk = new OpenAI({ apiKey: "sk-test", baseURL: fake.baseURL, maxRetries: 0, timeout: 5_000 });
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.reset();
    fake.requests.length = 0;
  });

  it("should answer a plain chat completion in the OpenAI shape", async () => {
    fake.setBehaviour({ reply: "Hej med dig" });
    const res = await sdk.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "Hej" }],
    });
    expect(res.object).toBe("chat.completion");
    expect(res.choices[0].message.content).toBe("Hej med dig");
    expect(res.choices[0].finish_reason).toBe("stop");
    expect(res.usage?.total_tokens).toBeGreaterThan(0);
    expect(fake.chatRequests()[0].body.messages[0].content).toBe("Hej");
    expect(fake.chatRequests()[0].authorization).toBe("Bearer sk-test");
  });

  it("should stream many chunks that reassemble to the reply, Danish letters intact, with a usage chunk", async () => {
    const reply = "Særlige æøå-regler gælder for sagsbehandling [1] og økonomi [2].";
    fake.setBehaviour({ reply });
    const stream = await sdk.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "Hvad gælder?" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      const c = chunk.choices[0];
      if (c?.delta?.content) deltas.push(c.delta.content);
      if (c?.finish_reason) finish = c.finish_reason;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(deltas.length).toBeGreaterThan(10);
    expect(deltas.join("")).toBe(reply);
    expect(finish).toBe("stop");
    expect(usage?.completion_tokens).toBe(deltas.length);
  });

  it("should send no usage chunk unless asked", async () => {
    fake.setBehaviour({ reply: "kort svar" });
    const stream = await sdk.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "x" }],
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.some((c) => c.usage)).toBe(false);
    expect(chunks.at(-1)?.choices[0].finish_reason).toBe("stop");
  });

  it("should compute the reply from the request", async () => {
    fake.setBehaviour({ reply: (req) => `Du skrev: ${req.texts.at(-1)}` });
    const res = await sdk.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "ping" }],
    });
    expect(res.choices[0].message.content).toBe("Du skrev: ping");
  });

  it("should return 429 with retry-after and 500 as SDK errors", async () => {
    fake.setBehaviour({ failure: { type: "http", status: 429, retryAfterSeconds: 7 } });
    const rate = await sdk.chat.completions
      .create({ model: "m", messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    expect(rate).toBeInstanceOf(OpenAI.RateLimitError);
    expect(rate.headers.get("retry-after")).toBe("7");

    fake.setBehaviour({ failure: { type: "http", status: 500 } });
    const server = await sdk.chat.completions
      .create({ model: "m", messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    expect(server).toBeInstanceOf(OpenAI.InternalServerError);
  });

  it("should fail only the given number of requests", async () => {
    fake.setBehaviour({ failure: { type: "http", status: 500 }, failureCount: 1, reply: "ok" });
    await expect(
      sdk.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] }),
    ).rejects.toThrow();
    const res = await sdk.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] });
    expect(res.choices[0].message.content).toBe("ok");
  });

  it("should break the stream mid-answer by destroying the socket", async () => {
    fake.setBehaviour({
      reply: "en lang tekst der bliver afbrudt undervejs",
      failure: { type: "broken", afterTokens: 3 },
    });
    const stream = await sdk.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "x" }],
      stream: true,
    });
    const got: string[] = [];
    const err = await (async () => {
      for await (const chunk of stream) got.push(chunk.choices[0]?.delta?.content ?? "");
    })().catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(got.join("")).toBe("en lang t");
  });

  it("should never answer when hanging (the SDK times out)", async () => {
    fake.setBehaviour({ failure: { type: "hang" } });
    const err = await sdk.chat.completions
      .create({ model: "m", messages: [{ role: "user", content: "x" }] }, { timeout: 300 })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
  });

  it("should wait the configured first-token delay", async () => {
    fake.setBehaviour({ firstTokenDelayMs: 150, reply: "ok" });
    const t0 = Date.now();
    await sdk.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it("should reject a wrong API key with 401", async () => {
    const other = new OpenAI({ apiKey: "wrong", baseURL: fake.baseURL, maxRetries: 0 });
    await expect(
      other.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] }),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it("should return deterministic normalised embeddings, as floats and as base64", async () => {
    const asFloat = await sdk.embeddings.create({
      model: "e",
      input: ["ferie og løn", "ferie og løn", "noget helt andet"],
      encoding_format: "float",
    });
    expect(asFloat.data).toHaveLength(3);
    const [a, b, c] = asFloat.data.map((d) => d.embedding as number[]);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(Math.hypot(...a)).toBeCloseTo(1, 6);
    expect(a).toEqual(fakeEmbedding("ferie og løn"));
    // the SDK's default asks for base64 and decodes it
    const asBase64 = await sdk.embeddings.create({ model: "e", input: "ferie og løn" });
    const decoded = Array.from(asBase64.data[0].embedding as ArrayLike<number>);
    decoded.forEach((x, i) => {
      expect(x).toBeCloseTo(a[i], 5);
    });
  });
});
