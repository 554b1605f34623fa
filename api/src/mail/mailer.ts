/**
 * The one mail client. With SMTP_URL it sends through that server; without, each message is written to
 * DATA_DIR/outbox/ as an .eml file and its link is logged (the development fallback). Requests do not wait
 * for mail: they enqueue() the work, which runs after the answer (see mail-queue.ts).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Transporter } from "nodemailer";
import type { AppConfig } from "../config";
import { logger } from "../logger";
import { ensurePrivateDirAsync, PRIVATE_FILE_MODE, tightenPrivateFolder } from "../private-files";
import { type MailContent, passwordResetMail, verificationMail } from "./mail.templates";
import { type MailJob, MailQueue } from "./mail-queue";

export interface Mailer {
  /** no name: the address is not verified, so a name given at registration is a stranger's text */
  sendVerification(to: string, token: string): Promise<void>;
  /** `name` only for a verified account (null otherwise) */
  sendPasswordReset(to: string, name: string | null, token: string): Promise<void>;
  /** run mail work after the answer; a failure is logged, never thrown */
  enqueue(kind: string, job: MailJob): void;
  /** resolves when the enqueued work is done (shutdown waits for it; tests await delivery with it) */
  idle(): Promise<void>;
  close(): void;
}

export function outboxDir(dataDir: string): string {
  return path.join(dataDir, "outbox");
}

/** Build the mailer for this configuration. */
export function createMailer(config: Pick<AppConfig, "smtpUrl" | "mailFrom" | "dataDir" | "appUrl">): Mailer {
  // an outbox left readable to others by an older version: its mails hold live links
  if (!config.smtpUrl) tightenPrivateFolder(outboxDir(config.dataDir));
  // nodemailer is loaded with the first mail, not at start (a bundled chunk of its own: less for a start to compile)
  let transport: Promise<Transporter> | null = null;
  const transporter = () =>
    (transport ??= import("nodemailer").then(({ default: nodemailer }) =>
      config.smtpUrl
        ? nodemailer.createTransport(config.smtpUrl)
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }),
    ));

  async function send(to: string, content: MailContent, kind: string): Promise<void> {
    const info = await (await transporter()).sendMail({
      from: config.mailFrom,
      to,
      subject: content.subject,
      text: content.text,
      html: content.html,
    });
    if (config.smtpUrl) {
      logger.info({ to, kind, messageId: info.messageId }, "mail sent");
      return;
    }
    const dir = outboxDir(config.dataDir);
    await ensurePrivateDirAsync(dir, config.dataDir);
    const file = path.join(
      dir,
      `${new Date().toISOString().replace(/[:.]/g, "-")}-${kind}-${randomBytes(3).toString("hex")}.eml`,
    );
    // owner-only: the mail holds a live verification or reset link
    await fs.writeFile(file, (info as unknown as { message: Buffer }).message, {
      mode: PRIVATE_FILE_MODE,
      flag: "wx",
    });
    logger.info({ to, kind, file, link: content.link }, `mail written to outbox: ${content.link}`);
  }

  const queue = new MailQueue();
  return {
    sendVerification: (to, token) => send(to, verificationMail(config.appUrl, token), "verify-email"),
    sendPasswordReset: (to, name, token) =>
      send(to, passwordResetMail(config.appUrl, name, token), "reset-password"),
    enqueue: (kind, job) => queue.enqueue(kind, job),
    idle: () => queue.idle(),
    close: () => void transport?.then((t) => t.close()),
  };
}
