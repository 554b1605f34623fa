/**
 * Several API processes over one store: every change to the users collection and every end of a login session
 * (a delete or an update of the sessions collection), made by ANY client (another server, the CLI, a script),
 * clears this process's auth cache at once, through one change stream on the database. While it is caught up, the cache
 * trusts its entries longer than its 1 s rule (auth.cache.ts FOLLOWED_TTL_MS): a signed-in request then costs
 * no store round trip. The SESSIONS_CHANGED event (services.ts) still re-checks that user's websockets.
 */
import { openChangeFeed } from "../events/change-feed";
import { UserModel } from "../users/user.model";
import { authCache, invalidateAuthCache } from "./auth.cache";
import { SessionModel } from "./session.model";

/** A getMore on this stream waits at most this long: an idle stream reports "caught up" this often. */
export const AUTH_FEED_AWAIT_MS = 150;

export interface AuthWatch {
  /** resolves once both streams are open (and the cache trusts entries longer) */
  ready: Promise<void>;
  close(): Promise<void>;
}

export function watchAuthChanges(): AuthWatch {
  const users = UserModel.collection.collectionName;
  const sessions = SessionModel.collection.collectionName;
  // one stream for both collections (half the getMores of two); which document changed is not needed: any
  // change clears everything (they are rare). A new session cannot make an entry stale: inserts there are not
  // followed.
  const feed = openChangeFeed({
    collection: `${users}+${sessions}`,
    database: true,
    awaitMs: AUTH_FEED_AWAIT_MS,
    pipeline: [
      {
        $match: {
          $or: [
            { "ns.coll": users, operationType: { $in: ["insert", "update", "replace", "delete", "drop"] } },
            { "ns.coll": sessions, operationType: { $in: ["update", "replace", "delete", "drop"] } },
          ],
        },
      },
      { $project: { operationType: 1 } },
    ],
    onChange: invalidateAuthCache,
    onResync: invalidateAuthCache,
  });
  let closed = false;
  const ready = feed.ready.then(() => {
    if (closed) return;
    invalidateAuthCache();
    authCache.follow({ since: Date.now(), caughtUpTo: () => feed.caughtUpTo() });
  });
  return {
    ready,
    async close() {
      closed = true;
      authCache.follow(null);
      await feed.close();
    },
  };
}
