/**
 * Retrieval-only answers (no LLM configured, the embedded default): the best passages quoted verbatim, each
 * cited, under a label saying plainly that this is found text, not a written answer.
 */
import { escapeInline } from "../../markdown/sanitize";
import { answerTexts } from "./texts";
import type { AnswerLanguage, NumberedSource } from "./types";

export { RETRIEVAL_MODE_MAX_PASSAGES, RETRIEVAL_QUOTE_MAX_CHARS } from "./quotes";

/**
 * A quote (plain text, see quotes.ts) as a Markdown blockquote; brackets escaped so the text cannot pose as a
 * citation marker (so the passage is read as plain text: an autolink becomes its bare address, still a link).
 */
function quote(text: string): string {
  return text
    .replace(/[\\[\]]/g, (c) => `\\${c}`)
    .split("\n")
    .map((line) => (line.trim() ? `> ${line.trimEnd()}` : ">"))
    .join("\n");
}

/**
 * The Markdown content of a retrieval-only answer; every source given is quoted (its `quote`, which its citation
 * stores too) and cited as [n].
 */
export function buildRetrievalAnswer(sources: NumberedSource[], language: AnswerLanguage): string {
  const parts = [answerTexts[language].retrievalLabel];
  for (const s of sources) {
    const where = [s.title, ...s.headingPath]
      .map((x) => escapeInline(x).trim())
      .filter(Boolean)
      .join(" › ");
    parts.push(`**${where}** [${s.number}]\n${quote(s.quote ?? s.text)}`);
  }
  return parts.join("\n\n");
}
