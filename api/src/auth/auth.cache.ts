/**
 * In-process caches behind AuthService.authenticate(), so a signed-in request does not cost two store round
 * trips and an HMAC verification every time.
 *
 * - TokenMemo: token string → its verified claims. Verifying the same string with the same secret always gives
 *   the same answer; only the expiry depends on the clock, and it is checked again on every use. Only valid
 *   tokens are remembered.
 * - AuthCache: login session id → the session's user (a lean copy) and expiry, as last read from the store.
 *   Each request gets its own document hydrated from the copy (no request shares a mutable document).
 *
 * How stale can an entry be?
 * - Changes made by THIS process are seen at once: every write to the users collection through mongoose (any
 *   model or query write: save, updateOne/Many, findOneAndUpdate/Delete/Replace, replaceOne, deleteOne/Many,
 *   insertMany, bulkWrite) and every write to the sessions collection that can end a session clears the cache
 *   (invalidateAuthCacheOnWrites, the one place for that rule), and so does emitSessionsChanged (logout,
 *   password change or reset, revocation, deletion). A lookup that was already running when the cache was
 *   cleared does not store its (possibly older) result.
 * - Changes made by ANOTHER process (the CLI deleting a user or revoking sessions while the server runs, a
 *   second server): an entry is trusted for at most AUTH_CACHE_TTL_MS (1 s) after it was read, so such a token
 *   keeps working for up to one second. Several processes over one store (auth.watch.ts): change streams on the
 *   users and sessions collections clear the cache on every such change, by any client; while they are caught
 *   up (every change committed before now − FOLLOWED_LAG_MS has been seen) an entry read since they started
 *   is trusted up to FOLLOWED_TTL_MS. A stalled, dropped or lagging stream falls back to the 1 s rule at once,
 *   so a change anywhere is seen within 1 s either way.
 * - An entry is never used past its session's expiry.
 * Writes that bypass mongoose models (mongoose.connection.collection("users").updateOne(...)) are not seen
 * either: write users and sessions through their models.
 */
import type { Schema } from "mongoose";
import { onEveryWrite } from "../db/write-hooks";
import { onUserWrites } from "../users/user.model";

/** How long an entry is trusted without asking the store (the window for other processes' changes). */
export const AUTH_CACHE_TTL_MS = 1_000;
/**
 * While the users and sessions change streams are caught up, an entry is trusted this long (a signed-in user's
 * requests cost no store round trip for a minute instead of a second).
 */
export const FOLLOWED_TTL_MS = 60_000;
/**
 * The change streams count as caught up while every change committed before now − FOLLOWED_LAG_MS has been
 * handed out (and cleared the cache). Below AUTH_CACHE_TTL_MS, so a change is seen within 1 s either way.
 */
export const FOLLOWED_LAG_MS = 900;
/** At most this many sessions (and, separately, tokens) are remembered; the oldest are dropped first. */
export const AUTH_CACHE_MAX = 10_000;

export interface VerifiedClaims {
  sub: string;
  sid: string;
  /** expiry, seconds since the epoch (the JWT `exp`) */
  exp: number;
}

/** Remembered results of verifying tokens (per secret: one per AuthService). */
export class TokenMemo {
  private readonly entries = new Map<string, VerifiedClaims>();

  constructor(private readonly max = AUTH_CACHE_MAX) {}

  /** The claims of a token verified earlier and still unexpired (the same rule as jose: exp > now). */
  get(token: string, nowMs = Date.now()): VerifiedClaims | undefined {
    const claims = this.entries.get(token);
    if (!claims) return undefined;
    if (claims.exp <= Math.floor(nowMs / 1000)) {
      this.entries.delete(token);
      return undefined;
    }
    return claims;
  }

  set(token: string, claims: VerifiedClaims): void {
    evictOldest(this.entries, this.max);
    this.entries.set(token, claims);
  }

  clear(): void {
    this.entries.clear();
  }
}

export interface CachedAuth {
  userId: string;
  /** the user as read from the store (lean, never handed out: hydrate a copy) */
  user: Record<string, unknown>;
  /** when the login session expires (ms since the epoch) */
  sessionExpires: number;
  /** when it was read from the store (ms since the epoch; the lookup's start) */
  readAt: number;
}

/** What keeps the cache in step with other processes' changes (auth.watch.ts). */
export interface AuthFollower {
  /** entries read from this moment on (ms since the epoch) are covered */
  since: number;
  /** every users/sessions change committed before this moment (ms since the epoch) has cleared the cache */
  caughtUpTo(): number;
}

export class AuthCache {
  private readonly entries = new Map<string, CachedAuth>();
  /** increases on every invalidation: lookups that started before one do not store their result */
  private generation = 0;
  private follower: AuthFollower | null = null;

  constructor(
    private readonly ttlMs = AUTH_CACHE_TTL_MS,
    private readonly max = AUTH_CACHE_MAX,
    private readonly followedTtlMs = FOLLOWED_TTL_MS,
    private readonly followedLagMs = FOLLOWED_LAG_MS,
  ) {}

  /** Other processes' changes are followed (or, null, no longer): entries may be trusted longer meanwhile. */
  follow(follower: AuthFollower | null): void {
    this.follower = follower;
  }

  /** The cached authentication of session `sid` for user `userId`, if still usable. */
  get(sid: string, userId: string, nowMs = Date.now()): CachedAuth | undefined {
    const entry = this.entries.get(sid);
    if (!entry) return undefined;
    if (entry.userId !== userId || nowMs >= entry.sessionExpires) {
      this.entries.delete(sid);
      return undefined;
    }
    const age = nowMs - entry.readAt;
    if (age < this.ttlMs) return entry;
    const f = this.follower;
    // older than 1 s: only while every change up to a moment ago has been seen (and would have removed it)
    if (
      f &&
      age < this.followedTtlMs &&
      entry.readAt >= f.since &&
      f.caughtUpTo() >= nowMs - this.followedLagMs
    )
      return entry;
    if (age >= this.followedTtlMs || !f) this.entries.delete(sid);
    return undefined;
  }

  /** Call before reading the store; pass the result to set() so a result older than an invalidation is dropped. */
  begin(): number {
    return this.generation;
  }

  set(sid: string, entry: Omit<CachedAuth, "readAt">, generation: number, readAtMs = Date.now()): void {
    if (generation !== this.generation) return;
    evictOldest(this.entries, this.max);
    // re-inserted: the map's order stays oldest read first
    this.entries.delete(sid);
    this.entries.set(sid, { ...entry, readAt: readAtMs });
  }

  /** Forget everything (a user or session changed, here or elsewhere). */
  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

function evictOldest<K, V>(map: Map<K, V>, max: number): void {
  while (map.size >= max) {
    const oldest = map.keys().next();
    if (oldest.done) return;
    map.delete(oldest.value);
  }
}

/** The process's cache of authenticated sessions (the model hooks below are process-wide too). */
export const authCache = new AuthCache();

/** Forget every cached authentication (called on every in-process user or session change). */
export function invalidateAuthCache(): void {
  authCache.clear();
}

/**
 * Clear the auth cache around every write through this schema's model (db/write-hooks.ts: before and after,
 * also when the write fails half-way). `inserts`: whether inserts count (a new session cannot make an entry
 * stale; a login's new session should not clear everyone's entries).
 */
export function invalidateAuthCacheOnWrites(schema: Schema, opts: { inserts: boolean }): void {
  onEveryWrite(schema, opts, invalidateAuthCache);
}

// every write to the users collection (any model or query write, inserts too) clears the cache
onUserWrites(invalidateAuthCache);
