/**
 * Retrieval-only answers (no LLM configured, the embedded default): the best passages quoted verbatim, each
 * cited, under a label saying plainly that this is found text, not a written answer.
 */

import { escapeInline, plainText } from "../../markdown/sanitize";
import { excerpt } from "./citations";
import { answerTexts } from "./texts";
import type { AnswerLanguage, NumberedSource } from "./types";

/** how many passages a retrieval-only answer quotes */
export const RETRIEVAL_MODE_MAX_PASSAGES = 3;
/** each quote is shortened to this */
export const RETRIEVAL_QUOTE_MAX_CHARS = 700;

/**
 * Passage text as a Markdown blockquote; brackets escaped so the text cannot pose as a citation marker (so the
 * passage is read as plain text: an autolink becomes its bare address, which is still shown as a link).
 */
function quote(text: string): string {
  return excerpt(plainText(text), RETRIEVAL_QUOTE_MAX_CHARS)
    .replace(/[\\[\]]/g, (c) => `\\${c}`)
    .split("\n")
    .map((line) => (line.trim() ? `> ${line.trimEnd()}` : ">"))
    .join("\n");
}

/** The Markdown content of a retrieval-only answer; every source given is quoted and cited as [n]. */
export function buildRetrievalAnswer(sources: NumberedSource[], language: AnswerLanguage): string {
  const parts = [answerTexts[language].retrievalLabel];
  for (const s of sources) {
    const where = [s.title, ...s.headingPath]
      .map((x) => escapeInline(x).trim())
      .filter(Boolean)
      .join(" › ");
    parts.push(`**${where}** [${s.number}]\n${quote(s.text)}`);
  }
  return parts.join("\n\n");
}
