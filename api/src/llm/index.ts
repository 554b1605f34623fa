/** Public surface of the LLM client. */
export { createLlmClient } from "./llm.client";
export * from "./llm.errors";
export type * from "./llm.types";
