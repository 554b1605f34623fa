/**
 * The services of one running app (server or CLI), built from its configuration. Transports (GraphQL, REST,
 * CLI) receive this and call into it; they hold no rules of their own.
 */
import { listActivity } from "./activity/activity.service";
import { AuthService } from "./auth/auth.service";
import { createRateLimits, type RateLimits } from "./auth/rate-limits";
import { loadJwtSecret } from "./auth/tokens";
import {
  addBookmark,
  listBookmarks,
  removeBookmark,
  removeBookmarksOfArticle,
  renameBookmarkedArticle,
} from "./bookmarks/bookmarks.service";
import { ChatService } from "./chat/chat.service";
import type { AppConfig } from "./config";
import { KnowledgeService } from "./knowledge/knowledge.service";
import { createMailer, type Mailer } from "./mail/mailer";
import { getPreferences, updatePreferences } from "./users/preferences.service";
import { UsersService } from "./users/users.service";

export interface Services {
  config: AppConfig;
  mailer: Mailer;
  limits: RateLimits;
  auth: AuthService;
  users: UsersService;
  chat: ChatService;
  knowledge: KnowledgeService;
  /** the features kept as module functions, handed to the doors like the others (REST routers get `services`) */
  activity: { list: typeof listActivity };
  bookmarks: { list: typeof listBookmarks; add: typeof addBookmark; remove: typeof removeBookmark };
  preferences: { get: typeof getPreferences; update: typeof updatePreferences };
  /** Stops timers and in-flight work and waits for pending writes; call before closing the database. */
  close(): Promise<void>;
}

export function createServices(config: AppConfig): Services {
  const mailer = createMailer(config);
  const limits = createRateLimits(config.rateLimits);
  const auth = new AuthService({ config, mailer, limits, jwtSecret: loadJwtSecret(config) });
  const knowledge = new KnowledgeService({
    config,
    // bookmarks keep each article's title: they follow a rename and go with a deleted article
    hooks: { articleDeleted: removeBookmarksOfArticle, articleRenamed: renameBookmarkedArticle },
  });
  const users = new UsersService({ config, auth, pendingWrites: () => knowledge.searchesRecorded() });
  const chat = new ChatService({
    config,
    retrieve: (query, k) => knowledge.retrievePassages(query, k),
    users: {
      emailOf: (id) => users.emailOf(id),
      languageOf: async (id) => (await getPreferences(id)).language,
    },
  });
  return {
    config,
    mailer,
    limits,
    auth,
    users,
    chat,
    knowledge,
    activity: { list: listActivity },
    bookmarks: { list: listBookmarks, add: addBookmark, remove: removeBookmark },
    preferences: { get: getPreferences, update: updatePreferences },
    close: async () => {
      // queued mail work (tokens and sends) still needs the database and the transport
      await Promise.all([chat.close(), knowledge.searchesRecorded(), mailer.idle()]);
      mailer.close();
    },
  };
}
