/**
 * Several API processes over one store: every change to the users collection and every end of a login session
 * (a delete or an update of the sessions collection), made by ANY client (another server, the CLI, a script),
 * clears this process's auth cache at once, through change streams. While both streams are caught up, the cache
 * trusts its entries longer than its 1 s rule (auth.cache.ts FOLLOWED_TTL_MS): a signed-in request then costs
 * no store round trip. The SESSIONS_CHANGED event (services.ts) still re-checks that user's websockets.
 */
import { type ChangeFeed, openChangeFeed } from "../events/change-feed";
import { UserModel } from "../users/user.model";
import { authCache, invalidateAuthCache } from "./auth.cache";
import { SessionModel } from "./session.model";

/** A getMore on these streams waits at most this long: an idle stream reports "caught up" this often. */
export const AUTH_FEED_AWAIT_MS = 100;

export interface AuthWatch {
  /** resolves once both streams are open (and the cache trusts entries longer) */
  ready: Promise<void>;
  close(): Promise<void>;
}

export function watchAuthChanges(): AuthWatch {
  const feed = (collection: string, kinds: string[]): ChangeFeed =>
    openChangeFeed({
      collection,
      awaitMs: AUTH_FEED_AWAIT_MS,
      // which document changed is not needed: any change clears everything (they are rare)
      pipeline: [{ $match: { operationType: { $in: kinds } } }, { $project: { operationType: 1 } }],
      onChange: invalidateAuthCache,
      onResync: invalidateAuthCache,
    });
  // a new session cannot make an entry stale; a new user can replace a deleted one's documents in tests
  const sessions = feed(SessionModel.collection.collectionName, ["update", "replace", "delete", "drop"]);
  const users = feed(UserModel.collection.collectionName, ["insert", "update", "replace", "delete", "drop"]);
  let closed = false;
  const ready = Promise.all([sessions.ready, users.ready]).then(() => {
    if (closed) return;
    invalidateAuthCache();
    authCache.follow({
      since: Date.now(),
      caughtUpTo: () => Math.min(sessions.caughtUpTo(), users.caughtUpTo()),
    });
  });
  return {
    ready,
    async close() {
      closed = true;
      authCache.follow(null);
      await Promise.all([sessions.close(), users.close()]);
    },
  };
}
