/** User-facing texts of the answering engine, per answer language. Error messages are Danish (the app's language). */
import type { AnswerLanguage } from "./types";

/** Built at first use, not at import: building one loads locale and time-zone data (milliseconds at start). */
const DATE_FORMAT: Partial<Record<AnswerLanguage, Intl.DateTimeFormat>> = {};

export function formatDate(date: Date, language: AnswerLanguage): string {
  DATE_FORMAT[language] ??= new Intl.DateTimeFormat(language === "da" ? "da-DK" : "en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "Europe/Copenhagen",
  });
  return DATE_FORMAT[language].format(date);
}

export const answerTexts: Record<
  AnswerLanguage,
  {
    /** the answer when no relevant passage was found */
    notCovered: string;
    /** the label that opens a retrieval-only answer */
    retrievalLabel: string;
    /** freshness warning for one cited article */
    stale: (title: string, number: number, updatedAt: string, staleDays: number) => string;
  }
> = {
  da: {
    notCovered:
      "Vidensbanken dækker desværre ikke dit spørgsmål: Jeg fandt ingen artikler, der handler om det. " +
      "Prøv at formulere spørgsmålet anderledes, eller kontakt sekretariatet, hvis oplysningerne mangler i vidensbanken.",
    retrievalLabel:
      "**Fundne tekstuddrag – ikke et skrevet svar.** Der er ikke tilknyttet en sprogmodel, så her er de mest " +
      "relevante afsnit fra vidensbanken, gengivet ordret. Kontrollér altid oplysningerne mod officielle kilder; " +
      "det er ikke juridisk rådgivning.",
    stale: (title, number, updatedAt, staleDays) =>
      `⚠️ Bemærk: «${title}» [${number}] blev sidst opdateret ${updatedAt} (for mere end ${staleDays} dage siden). ` +
      "Kontrollér, at oplysningerne stadig gælder.",
  },
  en: {
    notCovered:
      "The knowledge base does not cover your question: I found no articles about it. " +
      "Try rephrasing the question, or contact the secretariat if the information is missing from the knowledge base.",
    retrievalLabel:
      "**Found text passages – not a written answer.** No language model is connected, so these are the most " +
      "relevant passages from the knowledge base, quoted verbatim. Always check the information against official " +
      "sources; this is not legal advice.",
    stale: (title, number, updatedAt, staleDays) =>
      `⚠️ Note: “${title}” [${number}] was last updated ${updatedAt} (more than ${staleDays} days ago). ` +
      "Check that the information still applies.",
  },
};

/** Appended when the model stopped at its token limit. */
export const truncatedNote: Record<AnswerLanguage, string> = {
  da: "_(Svaret blev afkortet, fordi det var for langt. Stil gerne et mere afgrænset spørgsmål.)_",
  en: "_(The answer was cut short because it was too long. Try a narrower question.)_",
};
