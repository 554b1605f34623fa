/**
 * The warm-up's stand-in for the language model (warmup.ts): the real LLM client (the OpenAI SDK, its stream
 * parser, the client's token handling) over a fetch that never leaves the process and answers every chat
 * completion with the same short streamed answer. So a process with a model configured warms the answer path it
 * runs for every question (prompt, streamed deltas, citation cleaning) without a model call.
 */
import { createLlmClient, type LlmClient } from "./llm";

/** the canned answer, in pieces as a model streams them (cites source 1, as most answers do) */
const TOKENS = [
  "Klage",
  "fristen ",
  "er ",
  "normalt ",
  "fire ",
  "uger ",
  "fra ",
  "du ",
  "modtog ",
  "afgørelsen ",
  "[1]",
  ". ",
  "Se ",
  "også ",
  "vejledningen ",
  "om ",
  "aktindsigt.",
];

function chunk(delta: Record<string, unknown>, finish: string | null): string {
  const body = { id: "warmup", object: "chat.completion.chunk", created: 0, model: "warmup" };
  return `data: ${JSON.stringify({ ...body, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

const SSE = [
  chunk({ role: "assistant", content: "" }, null),
  ...TOKENS.map((t) => chunk({ content: t }, null)),
  chunk({}, "stop"),
  "data: [DONE]\n\n",
].join("");

/** every request answered in-process with the canned stream (the warm-up asks only for streamed answers) */
const cannedFetch: typeof fetch = async () =>
  new Response(SSE, { status: 200, headers: { "content-type": "text/event-stream" } });

/** The LLM client the warm-up answers with: the real client, the canned answer (no network). */
export function warmupModel(model: string): LlmClient {
  return createLlmClient({
    apiKey: "warmup",
    baseURL: "http://warmup.invalid/v1",
    model,
    timeoutMs: 10_000,
    maxRetries: 0,
    fetch: cannedFetch,
  });
}
