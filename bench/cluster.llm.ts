/**
 * CPU of the app's model calls alone: the LLM client (OpenAI SDK) streaming answers from the fake provider (in a
 * child process), with the SDK's default fetch (undici) and with llm.fetch.ts, alternated.
 *   npx tsx bench/cluster.llm.ts [--answers 50] [--rounds 6]
 * Prints CPU ms per answer (this process: the SDK, the fetch, our per-token work) for each; each answer is one
 * streamed call (~44 tokens) plus one short completion, as an answer with model-written follow-ups makes.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createLlmClient } from "../api/src/llm";
import { arg } from "./load";

if (process.argv.includes("--provider")) {
  const { startFakeOpenAI } = await import("../api/src/testing/fake-openai");
  const fake = await startFakeOpenAI({
    reply: (req) =>
      req.stream ? `${"Klagefristen er fire uger fra modtagelsen. ".repeat(3)}[1]` : "Klagefrist",
    firstTokenDelayMs: 50,
    tokenDelayMs: 5,
  });
  process.stdout.write(`${fake.baseURL}\n`);
} else {
  const answers = arg("answers", 50);
  const rounds = arg("rounds", 6);
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--provider"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const baseURL = await new Promise<string>((resolve) => {
    child.stdout.once("data", (b: Buffer) => resolve(b.toString().trim()));
  });
  const options = { apiKey: "sk-bench", baseURL, model: "m", timeoutMs: 60_000, maxRetries: 0 };
  const variants = {
    "built-in fetch": createLlmClient({ ...options, fetch: globalThis.fetch }),
    "llm.fetch": createLlmClient(options),
  };
  const user = [{ role: "user" as const, content: "Hvad er klagefristen?" }];
  const totals: Record<string, number[]> = {};
  for (let r = 0; r <= rounds; r++) {
    for (const [name, llm] of Object.entries(variants)) {
      const before = process.cpuUsage();
      await Promise.all(
        Array.from({ length: answers }, async () => {
          let text = "";
          await llm.streamChat(user, { onToken: (t) => (text += t) });
          await llm.complete(user, { maxTokens: 50 });
        }),
      );
      const used = process.cpuUsage(before);
      if (r > 0) totals[name] = [...(totals[name] ?? []), (used.user + used.system) / 1000 / answers];
    }
  }
  for (const [name, ms] of Object.entries(totals)) {
    const sorted = [...ms].sort((a, b) => a - b);
    console.log(
      `${name.padEnd(16)} CPU per answer (stream + completion): median ${sorted[Math.floor(sorted.length / 2)].toFixed(2)} ms  (runs ${ms.map((m) => m.toFixed(2)).join(", ")})`,
    );
  }
  child.kill();
  process.exit(0);
}
