/**
 * How login attempts and link mails are counted, so that a stranger cannot lock a user out (rate-limits.ts
 * counts; config.ts DEFAULT_RATE_LIMITS holds the numbers).
 *
 * Login, counted before the password is checked, in this order:
 * - loginPerIp: from one client address over all accounts (password spraying);
 * - loginPerAccountIp: at one account from one client address, the limit a guesser meets; a stranger's
 *   failures from another address do not touch the owner's count;
 * - loginPerAccount: at one account over all addresses, a much higher ceiling (a botnet's guesses).
 * The per-IP limit and the ceiling do not stop an address the account signed in from before
 * (known-addresses.ts): a stranger who reaches them locks out only addresses the owner never used, and from
 * a known address the per-(account, address) limit still bounds the guesses. The right password is no guess:
 * it clears the (account, address) count and gives back its attempt on the other two.
 *
 * Link mails (reset, verification), counted before the answer for every address alike (account-links.ts):
 * mailPerIp from one client address, mailPerAddressIp per (kind and address, client address), mailPerAddress
 * per kind and address over all client addresses (no flooded mailbox). The ceiling cannot lock anyone out of
 * resetting: every reset counted against it sends the address a new link that is valid for an hour, longer than
 * what is left of the window, so while it refuses the mailbox holds a working link. That is why the two kinds are
 * counted apart: asking for verification mails for a verified account (which sends nothing) uses up no reset mails.
 */
import type { AppError } from "../errors";
import { isKnownAddress, rememberAddress } from "./known-addresses";
import type { LimitName, RateLimits } from "./rate-limits";
import { ipKey, pairKey, type RequestMeta } from "./request-meta";

export type MailKind = "reset" | "verification";

export class AttemptLimits {
  constructor(private readonly limits: RateLimits) {}

  /** Count one login attempt at `email` (normalized) before its password is checked; throws TOO_MANY_REQUESTS. */
  async countLogin(email: string, meta: RequestMeta): Promise<void> {
    // looked up once, and only when a limit refuses
    let known: Promise<boolean> | undefined;
    const unlessKnown = async (refused: AppError | null) => {
      if (!refused) return;
      known ??= isKnownAddress(email, meta);
      if (!(await known)) throw refused;
    };
    await unlessKnown(await this.limits.take("loginPerIp", ipKey(meta)));
    await this.limits.consume("loginPerAccountIp", pairKey(email, meta));
    await unlessKnown(await this.limits.take("loginPerAccount", email));
  }

  /** The right password of a verified account: the attempt was no guess, and the address becomes known. */
  async loginSucceeded(email: string, meta: RequestMeta): Promise<void> {
    await Promise.all([
      this.limits.reset("loginPerAccountIp", pairKey(email, meta)),
      this.refundOthers(email, meta),
      rememberAddress(email, meta),
    ]);
  }

  /** The right password of an account still waiting for its verification: no guess, nothing more. */
  async loginNotAGuess(email: string, meta: RequestMeta): Promise<void> {
    await Promise.all([
      this.limits.refund("loginPerAccountIp", pairKey(email, meta)),
      this.refundOthers(email, meta),
    ]);
  }

  private async refundOthers(email: string, meta: RequestMeta): Promise<void> {
    const others: Array<[LimitName, string]> = [
      ["loginPerIp", ipKey(meta)],
      ["loginPerAccount", email],
    ];
    await Promise.all(others.map(([name, key]) => this.limits.refund(name, key)));
  }

  /** Count one link mail of `kind` to `email` (normalized) asked for from `meta`; throws TOO_MANY_REQUESTS. */
  async countMail(kind: MailKind, email: string, meta: RequestMeta): Promise<void> {
    const address = `${kind}:${email}`;
    await this.limits.consume("mailPerIp", ipKey(meta));
    await this.limits.consume("mailPerAddressIp", pairKey(address, meta));
    await this.limits.consume("mailPerAddress", address);
  }
}
