/**
 * Who listens where, for the scoped topics of the store bus (store-bus.ts): a process writes a scope's events
 * (a chat session's answer tokens) to the store only while another process has a subscriber for that scope.
 *
 * - Here: listen(topic, scope) counts this process's subscribers per scope; the first one announces the scope to
 *   the other processes and the last one leaving withdraws it (as entries of the events outbox: no command of
 *   their own when events are written anyway). Every LISTENER_RENEW_MS the scopes still listened are announced
 *   again, each valid LISTENER_TTL_MS, so a crashed process's announcements expire.
 * - Elsewhere: the other processes' announcements (from the events change stream, and read from the store at
 *   start), each expiring in this process's clock LISTENER_TTL_MS after it was received (an announcement that
 *   arrives late or is read again lives longer: that costs writes, never misses events).
 * - Catching up: when a scope gains its first listener elsewhere, the scope's catch-up (the answers so far, see
 *   chat.catch-up.ts) is written before any later event of the scope, so a subscriber that appeared while this
 *   process was not writing them misses nothing of an answer under way.
 */

/** an announcement is valid this long after it is received */
export const LISTENER_TTL_MS = 60_000;
/** the scopes listened here are announced again this often (well within LISTENER_TTL_MS) */
export const LISTENER_RENEW_MS = 20_000;
/** a received announcement's validity is capped at this (it is read from the store) */
const LISTENER_TTL_MAX_MS = 600_000;

/** One announcement: `ttl` ms of validity from receipt; 0 withdraws it. */
export interface ListenChange {
  t: string;
  s: string;
  ttl: number;
}

export interface ListenerRegistryOptions {
  ttlMs?: number;
  renewMs?: number;
  /** write these announcements for the other processes */
  announce(changes: ListenChange[]): void;
  /** write these events of `topic` for the other processes only (a catch-up) */
  catchUp(topic: string, events: unknown[]): void;
}

const keyOf = (topic: string, scope: string) => `${topic}\n${scope}`;

export class ListenerRegistry {
  /** scopes listened here: key → subscribers */
  private readonly here = new Map<string, { t: string; s: string; n: number }>();
  /** scopes listened elsewhere: key → origin → expiry (Date.now() of this process) */
  private readonly elsewhere = new Map<string, Map<string, number>>();
  private readonly catchUps = new Map<string, (scope: string) => unknown[]>();
  private readonly ttlMs: number;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly opts: ListenerRegistryOptions) {
    this.ttlMs = opts.ttlMs ?? LISTENER_TTL_MS;
    this.timer = setInterval(() => this.renew(), opts.renewMs ?? LISTENER_RENEW_MS);
    this.timer.unref();
  }

  /** A subscriber here for `scope` of `topic`, until the returned release. */
  listen(topic: string, scope: string): () => void {
    const key = keyOf(topic, scope);
    const entry = this.here.get(key);
    if (entry) entry.n++;
    else {
      this.here.set(key, { t: topic, s: scope, n: 1 });
      this.opts.announce([{ t: topic, s: scope, ttl: this.ttlMs }]);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const current = this.here.get(key);
      if (!current) return;
      if (--current.n > 0) return;
      this.here.delete(key);
      this.opts.announce([{ t: topic, s: scope, ttl: 0 }]);
    };
  }

  /** Does another process listen to `scope` of `topic` now? (Forgets the expired announcements it meets.) */
  listenedElsewhere(topic: string, scope: string): boolean {
    return this.alive(keyOf(topic, scope), Date.now());
  }

  private alive(key: string, now: number): boolean {
    const origins = this.elsewhere.get(key);
    if (!origins) return false;
    for (const [origin, expires] of origins) {
      if (expires > now) return true;
      origins.delete(origin);
    }
    this.elsewhere.delete(key);
    return false;
  }

  /** Another process's announcement (a malformed one is ignored). */
  received(origin: string, change: unknown): void {
    const c = change as Partial<ListenChange> | null;
    if (!c || typeof c.t !== "string" || typeof c.s !== "string" || typeof c.ttl !== "number") return;
    const key = keyOf(c.t, c.s);
    if (!(c.ttl > 0)) {
      const origins = this.elsewhere.get(key);
      origins?.delete(origin);
      if (origins?.size === 0) this.elsewhere.delete(key);
      return;
    }
    const before = this.listenedElsewhere(c.t, c.s);
    let origins = this.elsewhere.get(key);
    if (!origins) {
      origins = new Map();
      this.elsewhere.set(key, origins);
    }
    origins.set(origin, Date.now() + Math.min(c.ttl, LISTENER_TTL_MAX_MS));
    if (before) return;
    const events = this.catchUps.get(c.t)?.(c.s) ?? [];
    if (events.length > 0) this.opts.catchUp(c.t, events);
  }

  /** What a new listener elsewhere of a scope of `topic` needs first (see the module's comment). */
  setCatchUp(topic: string, events: (scope: string) => unknown[]): void {
    this.catchUps.set(topic, events);
  }

  /** Every scope listened here, withdrawn (at shutdown); renewal stops. */
  withdrawAll(): void {
    clearInterval(this.timer);
    const changes = [...this.here.values()].map(({ t, s }) => ({ t, s, ttl: 0 }));
    this.here.clear();
    if (changes.length > 0) this.opts.announce(changes);
  }

  private renew(): void {
    const changes = [...this.here.values()].map(({ t, s }) => ({ t, s, ttl: this.ttlMs }));
    if (changes.length > 0) this.opts.announce(changes);
    // forget the expired announcements of scopes nobody publishes to any more
    const now = Date.now();
    for (const key of [...this.elsewhere.keys()]) this.alive(key, now);
  }
}
