/**
 * The services of one running app (server or CLI), built from its configuration. Transports (GraphQL, REST,
 * CLI) receive this and call into it; they hold no rules of their own.
 *
 * This is the one place where features meet: the event bus is created here and handed to the services, and
 * every cross-feature effect is wired here (a deleted user → each feature removes its own data; a deleted or
 * renamed article → bookmarks follow; the chat asks the users module for e-mails and languages).
 */
import { connectActivityLog, listActivity, pageActivity } from "./activity/activity.service";
import { AdminService } from "./admin/stats.service";
import { AuthService } from "./auth/auth.service";
import { createRateLimits, type RateLimits } from "./auth/rate-limits";
import { loadJwtSecret } from "./auth/tokens";
import {
  addBookmark,
  bookmarkCountsByUser,
  listBookmarks,
  removeBookmark,
  removeBookmarksOfArticle,
  removeBookmarksOfUser,
  renameBookmarkedArticle,
} from "./bookmarks/bookmarks.service";
import { ChatService } from "./chat/chat.service";
import type { AppConfig } from "./config";
import type { EventBus } from "./events/bus";
import { createInProcessBus } from "./events/in-process";
import { KnowledgeService } from "./knowledge/knowledge.service";
import { createMailer, type Mailer } from "./mail/mailer";
import { NotionService, type NotionServiceDeps } from "./notion/notion.service";
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
  /** Stops timers and in-flight work and waits for pending writes; call before closing the database. */
  close(): Promise<void>;
}

export interface ServicesOptions {
  /** default: an in-process bus (one server process) */
  events?: EventBus;
  /** Notion client settings for tests (a faster request queue, shorter backoff) */
  notion?: Pick<NotionServiceDeps, "requestsPerSecond" | "clientOptions" | "now">;
}

export function createServices(config: AppConfig, opts: ServicesOptions = {}): Services {
  const events = opts.events ?? createInProcessBus();
  const disconnectActivityLog = connectActivityLog(events);
  const mailer = createMailer(config);
  const limits = createRateLimits(config.rateLimits);
  const auth = new AuthService({ config, mailer, limits, jwtSecret: loadJwtSecret(config) });
  const knowledge = new KnowledgeService({
    config,
    // bookmarks keep each article's title: they follow a rename and go with a deleted article
    hooks: { articleDeleted: removeBookmarksOfArticle, articleRenamed: renameBookmarkedArticle },
  });
  const notion = new NotionService({ config, events, knowledge, ...opts.notion });
  const preferences = new PreferencesService({ events });
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
      ],
      chatSessionCounts: () => chat.sessionCountsByUser(),
      bookmarkCounts: bookmarkCountsByUser,
    },
  });
  const chat = new ChatService({
    config,
    events,
    retrieve: (query, k) => knowledge.retrievePassages(query, k),
    users: {
      emailOf: (id) => users.emailOf(id),
      languageOf: async (id) => (await preferences.get(id)).language,
    },
  });
  const admin = new AdminService({
    topCategories: (limit) => knowledge.topCategories(limit),
    recentGaps: (limit) => chat.listKnowledgeGaps(limit),
  });
  return {
    config,
    events,
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
    close: async () => {
      await notion.close();
      disconnectActivityLog();
      // queued mail work (tokens and sends) still needs the database and the transport
      await Promise.all([chat.close(), knowledge.searchesRecorded(), mailer.idle(), knowledge.close()]);
      mailer.close();
    },
  };
}
