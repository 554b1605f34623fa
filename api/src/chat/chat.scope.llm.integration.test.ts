/**
 * The scope with a language model (the fake OpenAI server): the model is given only the scope's passages, and the
 * answer keeps the scope it was made in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/app";
import { createVerifiedUser } from "../testing/client";
import { type FakeChatRequest, type FakeOpenAI, startFakeOpenAI } from "../testing/fake-openai";
import { gqlOk, Q, sampleArticleId } from "./chat.test-helpers";

const SEND = `mutation SendScoped($sessionId: ID!, $content: String!, $scope: ChatScopeInput) {
  sendMessage(sessionId: $sessionId, content: $content, scope: $scope) { assistantMessage { id } } }`;
const MESSAGES = `query M($sessionId: ID!) { messages(sessionId: $sessionId) { id content mode scope { kind label } } }`;

let fake: FakeOpenAI;
let app: TestApp;
let alice: { token: string };
let attestation: string;

beforeAll(async () => {
  fake = await startFakeOpenAI({
    reply: (req: FakeChatRequest) => (req.stream ? "Det står i kilden [1]." : "Attestation"),
  });
  app = await startTestApp({
    config: { openaiBaseUrl: fake.baseURL, openaiApiKey: "sk-test", openaiModel: "fake-model" },
  });
  alice = await createVerifiedUser(app);
  attestation = await sampleArticleId(app, "oekonomi/attestation-og-godkendelse-af-betalinger.md");
});
afterAll(async () => {
  await app?.services.chat.whenIdle();
  await app?.close();
  await fake?.close();
});

/** Ask and return the text of the model's answer request (its prompt and sources). */
async function promptFor(
  scope?: unknown,
): Promise<{ prompt: string; answer: { content: string; mode: string; scope: unknown } }> {
  const sessionId = (await gqlOk(app, Q.create, {}, alice.token)).createSession.sessionId;
  const sent = await gqlOk(app, SEND, { sessionId, content: "Hvem attesterer udlæg?", scope }, alice.token);
  await app.services.chat.whenIdle();
  const streamed = fake
    .chatRequests()
    .filter((r) => r.body.stream)
    .at(-1);
  const { messages } = await gqlOk(app, MESSAGES, { sessionId }, alice.token);
  const answer = messages.find((m: { id: string }) => m.id === sent.sendMessage.assistantMessage.id);
  return { prompt: JSON.stringify(streamed?.body.messages ?? []), answer };
}

describe("the scope of a question with a language model", () => {
  it("should give the model only the scope's passages", async () => {
    const open = await promptFor();
    expect(open.prompt).toContain("Udlæg og refusion af egne udgifter");

    const scoped = await promptFor({ kind: "ARTICLES", articleIds: [attestation] });
    expect(scoped.prompt).toContain("Attestation og godkendelse af betalinger");
    expect(scoped.prompt).not.toContain("Udlæg og refusion af egne udgifter");
    expect(scoped.answer).toMatchObject({
      mode: "llm",
      scope: { kind: "ARTICLES", label: "Artikel: Attestation og godkendelse af betalinger" },
    });
    // the model's text is its own: the scope is shown beside it, not written into it
    expect(scoped.answer.content).not.toContain("Søgt i");
  });
});
