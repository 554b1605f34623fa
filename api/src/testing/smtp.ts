/**
 * A real SMTP server for tests (smtp-server): the app sends through SMTP_URL and the test reads what arrived.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface CapturedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** decoded text/plain part (quoted-printable undone) */
  text: string;
  /** every http(s) link in the text */
  links: string[];
}

export interface MailCapture {
  url: string;
  messages: CapturedMail[];
  /** the next (or an already received, not yet taken) message to this address */
  waitFor(to: string, timeoutMs?: number): Promise<CapturedMail>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = [];
  const soft = s.replace(/=\r?\n/g, "");
  for (let i = 0; i < soft.length; i++) {
    const c = soft[i];
    if (c === "=" && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

function decodeHeader(value: string): string {
  return value
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_m, enc: string, data: string) =>
      enc.toUpperCase() === "B"
        ? Buffer.from(data, "base64").toString("utf8")
        : decodeQuotedPrintable(data.replace(/_/g, " ")),
    )
    .replace(/\?=\s+=\?/g, "");
}

/** Parse the parts a test needs from a raw RFC 822 message (nodemailer output). */
export function parseMail(raw: string, envelope: { from: string; to: string[] }): CapturedMail {
  const unfolded = raw.replace(/\r\n/g, "\n");
  const headerEnd = unfolded.indexOf("\n\n");
  const headers = unfolded.slice(0, headerEnd).replace(/\n[ \t]+/g, " ");
  const subjectRaw = /^Subject: (.*)$/im.exec(headers)?.[1] ?? "";
  const subject = decodeHeader(subjectRaw).replace(/\s+/g, " ").trim();
  // the text/plain part: after its part headers, up to the next boundary
  const textPart = /Content-Type: text\/plain[^\n]*\n((?:[^\n]+\n)*)\n([\s\S]*?)(?:\n--|$)/i.exec(unfolded);
  let text = textPart?.[2] ?? unfolded.slice(headerEnd + 2);
  const encoding = /Content-Transfer-Encoding: (\S+)/i.exec(textPart?.[1] ?? headers)?.[1]?.toLowerCase();
  if (encoding === "quoted-printable") text = decodeQuotedPrintable(text);
  else if (encoding === "base64") text = Buffer.from(text.replace(/\s+/g, ""), "base64").toString("utf8");
  const links = [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]);
  return { ...envelope, raw, subject, text, links };
}

export interface SmtpCaptureOptions {
  /** accept each message only this many ms after it arrived: a slow mail server (timing tests) */
  delayMs?: number;
}

/** Start a capturing SMTP server on 127.0.0.1 (ephemeral port). */
export async function startSmtpCapture(opts: SmtpCaptureOptions = {}): Promise<MailCapture> {
  const messages: CapturedMail[] = [];
  const taken = new Set<CapturedMail>();
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
        };
        const accept = () => {
          messages.push(parseMail(Buffer.concat(chunks).toString("utf8"), envelope));
          for (const w of waiters.splice(0)) w();
          callback();
        };
        if (opts.delayMs) setTimeout(accept, opts.delayMs);
        else accept();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(to, timeoutMs = 10_000) {
      const addr = to.toLowerCase();
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find((m) => !taken.has(m) && m.to.includes(addr));
        if (found) {
          taken.add(found);
          return found;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Math.min(left, 200));
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
