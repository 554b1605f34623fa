/**
 * Every resolver class of the schema. Feature modules add theirs here (one line each).
 */
import { ActivityResolver } from "../activity/activity.resolver";
import { AdminResolver } from "../admin/admin.resolver";
import { AuthResolver } from "../auth/auth.resolver";
import { BookmarksResolver } from "../bookmarks/bookmarks.resolver";
import { ChatResolver } from "../chat/chat.resolver";
import { KnowledgeResolver } from "../knowledge/knowledge.resolver";
import { NotionResolver } from "../notion/notion.resolver";
import { SharesResolver } from "../shares/shares.resolver";
import { EnvironmentResolver } from "../system/environment.resolver";
import { UsersResolver } from "../users/users.resolver";

export const resolvers = [
  AuthResolver,
  UsersResolver,
  ActivityResolver,
  AdminResolver,
  EnvironmentResolver,
  ChatResolver,
  KnowledgeResolver,
  BookmarksResolver,
  NotionResolver,
  SharesResolver,
] as const;
