/** A chat session as a Markdown document (exportSession). Pure. */
import { NEW_SESSION_TITLE } from "@vidensbank/shared";
import { inertImages } from "../markdown/images";
import { escapeInline, escapeTags } from "./answer";
import type { ChatMessageView, ChatSessionView } from "./chat.presenter";

/** Built at first use, not at import: building one loads locale and time-zone data (milliseconds at start). */
let dateTime: Intl.DateTimeFormat | null = null;

function formatDateTime(at: Date): string {
  dateTime ??= new Intl.DateTimeFormat("da-DK", {
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "Europe/Copenhagen",
  });
  return dateTime.format(at);
}

/**
 * User text is shown as written, but never as HTML, never as an image and never breaking out of its quote: `\`,
 * `<` and `>` are escaped, then every image is made inert (a link to its address; markdown/images.ts).
 */
function quoteUserText(text: string): string {
  return inertImages(text.replace(/\\/g, "\\\\").replace(/</g, "\\<").replace(/>/g, "\\>"))
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
}

/** A URL as a Markdown link target: already encoded; only what would end the link is escaped. */
function linkTarget(url: string): string {
  return url.replace(/[\s()<>]/g, (c) => encodeURIComponent(c));
}

const STATUS_NOTE: Record<string, string> = {
  stopped: "_(Svaret blev stoppet.)_",
  pending: "_(Svaret var ikke færdigt ved eksporten.)_",
  streaming: "_(Svaret var ikke færdigt ved eksporten.)_",
};

/** The session as Markdown: title, export time, then each message with its sources (and how many were left out). */
export function sessionToMarkdown(
  session: ChatSessionView,
  messages: ChatMessageView[],
  now: Date = new Date(),
  /** messages of the shown branch before `messages`, left out (the export's bound: chat.sessions.ts) */
  omitted = 0,
): string {
  const out: string[] = [];
  out.push(`# ${escapeInline(session.title ?? NEW_SESSION_TITLE)}`, "");
  out.push(`_Eksporteret ${formatDateTime(now)} · oprettet ${formatDateTime(session.createdAt)}_`, "");
  out.push("_AI-svar skal kontrolleres mod officielle kilder og er ikke juridisk rådgivning._", "");
  if (omitted > 0) out.push(`_(De ${omitted} ældste beskeder er ikke med i eksporten.)_`, "");
  for (const m of messages) {
    const when = formatDateTime(m.timestamp);
    if (m.role === "user") {
      out.push(`## Du · ${when}`, "", quoteUserText(m.content), "");
      continue;
    }
    out.push(`## Assistent · ${when}`, "");
    // assistant content is Markdown without HTML (the answer engine strips it; escaped again here for answers
    // stored before it did) and, like the user's text, without images that would load (a model can be asked to
    // write one whose address carries the conversation)
    if (m.content.trim()) out.push(inertImages(escapeTags(m.content.trim())), "");
    if (m.status === "error" && m.error) out.push(`_(Fejl: ${escapeInline(m.error.message)})_`, "");
    const note = m.status ? STATUS_NOTE[m.status] : undefined;
    if (note) out.push(note, "");
    if (m.citations.length > 0) {
      out.push("**Kilder**", "");
      for (const c of m.citations) {
        const where = [c.title, ...c.headingPath].map(escapeInline).join(" › ");
        out.push(c.url ? `${c.number}. [${where}](${linkTarget(c.url)})` : `${c.number}. ${where}`);
      }
      out.push("");
    }
  }
  return `${out.join("\n").trimEnd()}\n`;
}
