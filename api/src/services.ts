/**
 * The services of one running app (server or CLI), built from its configuration. Transports (GraphQL, REST,
 * CLI) receive this and call into it; they hold no rules of their own.
 *
 * This is the one place where features meet: the event bus is created here and handed to the services, and
 * every cross-feature effect is wired here (a deleted user → each feature removes its own data; a deleted or
 * renamed article → bookmarks follow; the chat asks the users module for e-mails and languages).
 */

import { ACTIVITY_EVENT_SCOPES } from "./activity/activity.events";
import { applyActivityRetention } from "./activity/activity.retention";
import { connectActivityLog, listActivity, pageActivity } from "./activity/activity.service";
import { AdminService } from "./admin/stats.service";
import { AuthService } from "./auth/auth.service";
import { createRateLimits, type RateLimits } from "./auth/rate-limits";
import { loadJwtSecret } from "./auth/tokens";
import {
  addBookmark,
  bookmarkCountsByUser,
  bookmarkedArticleIds,
  listBookmarks,
  removeBookmark,
  removeBookmarksOfArticle,
  removeBookmarksOfUser,
  renameBookmarkedArticle,
} from "./bookmarks/bookmarks.service";
import { CHAT_EVENT_SCOPES } from "./chat/chat.events";
import { ChatService } from "./chat/chat.service";
import type { AppConfig } from "./config";
import "./auth/auth.events";
import { invalidateAuthCache } from "./auth/auth.cache";
import { watchAuthChanges } from "./auth/auth.watch";
import { emitSessionsChanged } from "./auth/session-events";
import { type EventBus, onEvent } from "./events/bus";
import { storeHasChangeStreams } from "./events/change-feed";
import { createInProcessBus } from "./events/in-process";
import { PROCESS_ID } from "./events/origin";
import { createStoreBus, type StoreBus } from "./events/store-bus";
import { KnowledgeService } from "./knowledge/knowledge.service";
import { createMailer, type Mailer } from "./mail/mailer";
import { NotionService, type NotionServiceDeps } from "./notion/notion.service";
import { SHARE_MAX_MESSAGES } from "./shares/shares.limits";
import { SharesService } from "./shares/shares.service";
import { PreferencesService } from "./users/preferences.service";
import { UsersService } from "./users/users.service";

export interface Services {
  config: AppConfig;
  /** the app's event bus: services publish on it, GraphQL subscriptions subscribe to it */
  events: EventBus;
  mailer: Mailer;
  limits: RateLimits;
  auth: AuthService;
  users: UsersService;
  preferences: PreferencesService;
  chat: ChatService;
  knowledge: KnowledgeService;
  /** Notion connection, discovery, configuration and sync (the sync writes through knowledge) */
  notion: NotionService;
  /** the features kept as module functions, handed to the doors like the others (REST routers get `services`) */
  activity: { list: typeof listActivity; page: typeof pageActivity };
  /** the admin statistics and the knowledge-gap report (read-only over the other features' data) */
  admin: AdminService;
  bookmarks: { list: typeof listBookmarks; add: typeof addBookmark; remove: typeof removeBookmark };
  /** read-only snapshots of conversations shared with colleagues (issue 17) */
  shares: SharesService;
  /**
   * resolves once other processes' events and article changes reach this one (at once when not shared) and the
   * activity log's retention is applied
   */
  ready(): Promise<void>;
  /** Stops timers and in-flight work and waits for pending writes; call before closing the database. */
  close(): Promise<void>;
}

export interface ServicesOptions {
  /** default: a store-backed bus when `shared`, else an in-process bus (one server process) */
  events?: EventBus;
  /** Notion client settings for tests (a faster request queue, shorter backoff) */
  notion?: Pick<NotionServiceDeps, "requestsPerSecond" | "clientOptions" | "now">;
  /**
   * Several API processes share the store (see sharedStore()): events cross processes over a change stream,
   * articles changed elsewhere are followed at once, answers in flight are counted in the store.
   */
  shared?: boolean;
}

/**
 * Whether this process may share its store with other API processes: an external store (MONGODB_URI) that
 * can watch() (a replica set, or the embedded store run on its own with `npm run db`). The embedded store a
 * process starts for itself (no MONGODB_URI; tests) is its own: one process, in-process events.
 */
export async function sharedStore(config: AppConfig): Promise<boolean> {
  return config.mongodbUri !== undefined && (await storeHasChangeStreams());
}

export function createServices(config: AppConfig, opts: ServicesOptions = {}): Services {
  const shared = opts.shared === true;
  const storeBus: StoreBus | null =
    !opts.events && shared
      ? createStoreBus({ scoped: { ...CHAT_EVENT_SCOPES, ...ACTIVITY_EVENT_SCOPES } })
      : null;
  const events = opts.events ?? storeBus ?? createInProcessBus();
  const disconnectActivityLog = connectActivityLog(events);
  const mailer = createMailer(config);
  const limits = createRateLimits(config.rateLimits);
  const auth = new AuthService({ config, mailer, limits, events, jwtSecret: loadJwtSecret(config) });
  const knowledge = new KnowledgeService({
    config,
    // bookmarks keep each article's title: they follow a rename and go with a deleted article
    hooks: { articleDeleted: removeBookmarksOfArticle, articleRenamed: renameBookmarkedArticle },
  });
  const notion = new NotionService({ config, events, knowledge, ...opts.notion });
  const preferences = new PreferencesService({ events });
  // shares read the owner's conversation through the chat, and go with the session or the user
  const shares: SharesService = new SharesService({
    config,
    chat: {
      getSession: (userId, sessionId) => chat.getSession(userId, sessionId),
      // one more than a share may hold: a longer session is refused without reading all its messages
      listMessages: async (userId, sessionId) =>
        (await chat.newestMessages(userId, sessionId, SHARE_MAX_MESSAGES + 1)).messages,
    },
    // (users is made below; these run only once requests arrive)
    users: { nameOf: (id) => users.nameOf(id), emailsOf: (ids) => users.emailsOf(ids) },
  });
  const users: UsersService = new UsersService({
    config,
    auth,
    events,
    pendingWrites: () => knowledge.searchesRecorded(),
    hooks: {
      // each feature removes its own data of a deleted user
      userDeleted: [
        (id) => chat.removeUserData(id),
        removeBookmarksOfUser,
        (id) => knowledge.clearRecentSearches(id),
        (id) => preferences.removeUserData(id),
        (id) => shares.removeSharesOfUser(id),
      ],
      chatSessionCounts: () => chat.sessionCountsByUser(),
      bookmarkCounts: bookmarkCountsByUser,
    },
  });
  const chat = new ChatService({
    config,
    events,
    sharedStore: shared,
    sessionDeleted: (sessionId) => shares.removeSharesOfSession(sessionId),
    articleText: async (id) => (await knowledge.peekArticle(id))?.content ?? null,
    retrieve: (query, k, filter) => knowledge.chatPassages(query, k, filter),
    // the scope of a question: articles and categories from knowledge, the user's bookmarks
    scopeSources: {
      articleTitles: async (ids) => {
        const found = await Promise.all(ids.map((id) => knowledge.peekArticle(id)));
        return new Map(found.flatMap((a) => (a ? [[a.id, a.title] as [string, string]] : [])));
      },
      categoryNames: async () => (await knowledge.categories()).map((c) => c.name),
      bookmarkedArticleIds,
    },
    users: {
      emailOf: (id) => users.emailOf(id),
      languageOf: async (id) => (await preferences.get(id)).language,
    },
  });
  const admin = new AdminService({
    topCategories: (limit) => knowledge.topCategories(limit),
    recentGaps: (limit) => chat.listKnowledgeGaps(limit),
  });
  // another process ended a user's sessions: forget cached sign-ins, re-check that user's websockets here
  const stopSessions = onEvent(events, "SESSIONS_CHANGED", (e) => {
    if (e.origin !== PROCESS_ID) emitSessionsChanged(e.userId);
  });
  // events of other processes may have been missed: caches compare with the store again
  const stopResync = onEvent(events, "EVENTS_RESYNC", () => {
    invalidateAuthCache();
    knowledge.resync();
  });
  const articles = shared ? knowledge.followStoreChanges() : null;
  // users and sessions changed by any client clear the auth cache here at once (and let it trust entries longer)
  const signIns = shared ? watchAuthChanges() : null;
  return {
    config,
    events,
    ready: async () => {
      await Promise.all([
        storeBus?.ready,
        articles?.ready,
        signIns?.ready,
        applyActivityRetention(config.activityRetentionDays),
      ]);
    },
    mailer,
    limits,
    auth,
    users,
    preferences,
    chat,
    knowledge,
    notion,
    activity: { list: listActivity, page: pageActivity },
    admin,
    bookmarks: { list: listBookmarks, add: addBookmark, remove: removeBookmark },
    shares,
    close: async () => {
      await notion.close();
      disconnectActivityLog();
      await Promise.all([stopSessions(), stopResync(), articles?.close(), signIns?.close()]);
      // queued mail work (tokens and sends) still needs the database and the transport
      await Promise.all([chat.close(), knowledge.searchesRecorded(), mailer.idle(), knowledge.close()]);
      mailer.close();
      // last: what the closing services published still reaches the other processes
      await storeBus?.close();
    },
  };
}
