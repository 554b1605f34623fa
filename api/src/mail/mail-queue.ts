/**
 * Mail work done after the answer has gone. A request that may or may not send mail (forgot password,
 * resend verification) must answer in the same time either way, so the look-up, the token and the SMTP round
 * trip all happen here, never on the request path. Failures are logged (the user can ask again).
 */
import { logger } from "../logger";

/** mail jobs running at once (each holds one SMTP connection) */
export const MAIL_QUEUE_CONCURRENCY = 4;
/** jobs waiting beyond this are dropped and logged: the mail limits keep a healthy queue far below it */
export const MAIL_QUEUE_MAX_WAITING = 1000;
/** how long shutdown waits for queued mail before giving up on it (logged) */
export const MAIL_DRAIN_TIMEOUT_MS = 10_000;

export type MailJob = () => Promise<void>;

export class MailQueue {
  private readonly waiting: Array<{ kind: string; job: MailJob }> = [];
  private running = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly concurrency = MAIL_QUEUE_CONCURRENCY,
    private readonly maxWaiting = MAIL_QUEUE_MAX_WAITING,
  ) {}

  /** Run `job` soon, after the caller has answered; never throws. */
  enqueue(kind: string, job: MailJob): void {
    if (this.waiting.length >= this.maxWaiting) {
      logger.error({ kind, waiting: this.waiting.length }, "mail queue full: mail dropped");
      return;
    }
    this.waiting.push({ kind, job });
    this.next();
  }

  /** Jobs queued or running. */
  get pending(): number {
    return this.waiting.length + this.running;
  }

  /** Resolves when every queued job has finished, or after `timeoutMs` (then logs how many were left). */
  idle(timeoutMs = MAIL_DRAIN_TIMEOUT_MS): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.idleWaiters = this.idleWaiters.filter((w) => w !== done);
        logger.error({ pending: this.pending }, "mail queue not drained in time");
        resolve();
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.idleWaiters.push(done);
    });
  }

  private next(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const { kind, job } = this.waiting.shift()!;
      this.running += 1;
      // a job that throws synchronously is caught like one that rejects
      Promise.resolve()
        .then(job)
        .catch((err: unknown) => logger.error({ err, kind }, "could not send mail"))
        .finally(() => {
          this.running -= 1;
          this.next();
          if (this.pending === 0) for (const w of this.idleWaiters.splice(0)) w();
        });
    }
  }
}
