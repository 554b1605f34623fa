/**
 * How many items each list field of the schema can return, for the result-cost estimate (complexity.ts): a list
 * field costs its items' cost times this. A field with a limit argument costs by the limit it will really use (the
 * service's clamp); a list without one by the size it can reach (a service's cap) or, for lists that grow with the
 * data (articles, users, a session's messages), the size planned for. The planned sizes are not enforced: a
 * larger list is still answered, and MAX_RESPONSE_BYTES bounds what is sent.
 */
import { ACTIVITY_LIMIT_DEFAULT, ACTIVITY_LIMIT_MAX } from "../activity/activity.limits";
import { GAP_EXAMPLES } from "../admin/gaps";
import { FEEDBACK_COMMENTS_SHOWN } from "../admin/stats/feedback-figures";
import {
  CHART_DAYS,
  GAPS_LIMIT_DEFAULT,
  GAPS_LIMIT_MAX,
  RECENT_ACTIVITY_SHOWN,
  TOP_CATEGORIES_SHOWN,
} from "../admin/stats.service";
import { FOLLOW_UPS_MAX } from "../chat/answer/follow-ups";
import { BRANCHES_PER_POINT_MAX } from "../chat/chat.branches";
import { MESSAGE_PAGE_DEFAULT, MESSAGE_PAGE_MAX } from "../chat/chat.pages";
import { MAX_SCOPE_ARTICLES } from "../chat/chat.scope-view";
import { SESSIONS_LISTED_MAX } from "../chat/chat.sessions";
import { RECENT_SEARCHES_KEPT, SEARCH_LIMIT_MAX } from "../knowledge/knowledge.service";
import { MAX_SELECTED } from "../notion/notion.service";
import { FAILURES_KEPT } from "../notion/notion.sync";
import { ADMIN_SHARES_MAX, SHARE_MAX_MESSAGES, SHARE_MAX_PER_USER } from "../shares/shares.limits";

/** A list field's size from its arguments (already coerced, variables applied). */
type ListSize = number | ((args: Record<string, unknown>) => number);

/** Lists that grow with the data: the sizes planned for. */
export const PLANNED_LIST_SIZES = {
  articles: 1_000,
  users: 1_000,
  /** not planned but enforced: a page of a session's messages (chat.pages.ts) */
  messagesPerSession: MESSAGE_PAGE_MAX,
  bookmarks: 500,
  categories: 50,
  tagsPerArticle: 20,
  citationsPerAnswer: 20,
  headingLevels: 6,
  highlightsPerText: 50,
  correctionsPerSearch: 20,
  notionDatabases: 200,
  propertiesPerNotionDatabase: 50,
} as const;

/** A list field not in LIST_SIZES (a new one: the schema test asks for an entry). */
export const DEFAULT_LIST_SIZE = 100;

function limitArg(args: Record<string, unknown>, fallback: number, max: number): number {
  const n = args.limit;
  if (typeof n !== "number" || !Number.isFinite(n)) return fallback;
  return Math.min(Math.max(Math.trunc(n), 1), max);
}

const P = PLANNED_LIST_SIZES;

/** "Type.field" → its size. Every list field of the schema is here (schema test). */
export const LIST_SIZES: Record<string, ListSize> = {
  "Query.activityLogs": (args) => limitArg(args, ACTIVITY_LIMIT_DEFAULT, ACTIVITY_LIMIT_MAX),
  "Query.knowledgeGaps": (args) => limitArg(args, GAPS_LIMIT_DEFAULT, GAPS_LIMIT_MAX),
  "KnowledgeGap.examples": GAP_EXAMPLES,
  // a page's size is its limit argument, which the type's field cannot see: cost the default page
  "ActivityPage.entries": ACTIVITY_LIMIT_DEFAULT,
  "AdminStats.topCategories": TOP_CATEGORIES_SHOWN,
  "AdminStats.recentActivity": RECENT_ACTIVITY_SHOWN,
  "AdminStats.messagesPerDay": CHART_DAYS,
  "AdminStats.activeUsersPerDay": CHART_DAYS,
  "FeedbackSummary.latestComments": FEEDBACK_COMMENTS_SHOWN,
  "Query.myRecentSearches": (args) => limitArg(args, RECENT_SEARCHES_KEPT, RECENT_SEARCHES_KEPT),
  // the limit is an argument of searchKnowledge, not of hits: cost the largest page
  "KnowledgeSearchResult.hits": SEARCH_LIMIT_MAX,
  "KnowledgeSearchResult.corrections": P.correctionsPerSearch,
  "KnowledgeSearchHit.highlights": P.highlightsPerText,
  "KnowledgeSearchHit.titleHighlights": P.highlightsPerText,
  "Query.knowledgeArticles": P.articles,
  "Query.knowledgeCategories": P.categories,
  "KnowledgeArticle.tags": P.tagsPerArticle,
  "Query.adminUsers": P.users,
  "Query.sessions": SESSIONS_LISTED_MAX,
  "Query.searchSessions": SESSIONS_LISTED_MAX,
  "Query.messages": (args) => limitArg(args, MESSAGE_PAGE_DEFAULT, P.messagesPerSession),
  "Query.myBookmarks": P.bookmarks,
  "ChatMessage.citations": P.citationsPerAnswer,
  "ChatMessage.usedNumbers": P.citationsPerAnswer,
  "ChatMessage.freshnessWarnings": P.citationsPerAnswer,
  "ChatCitation.headingPath": P.headingLevels,
  "ChatMessage.siblingIds": BRANCHES_PER_POINT_MAX,
  "ChatMessage.followUps": FOLLOW_UPS_MAX,
  // the shown thread's newest page
  "Mutation.switchBranch": MESSAGE_PAGE_DEFAULT,
  "ChatScope.articles": MAX_SCOPE_ARTICLES,
  "Query.notionDatabases": P.notionDatabases,
  "NotionDatabase.properties": P.propertiesPerNotionDatabase,
  "NotionConfig.selectedDatabases": MAX_SELECTED,
  "NotionSyncRun.failures": FAILURES_KEPT,
  "Query.chatShares": SHARE_MAX_PER_USER,
  "Query.adminChatShares": ADMIN_SHARES_MAX,
  "SharedChat.messages": SHARE_MAX_MESSAGES,
};

/** The number of items the list field typeName.fieldName can return with these arguments. */
export function listSize(typeName: string, fieldName: string, args: Record<string, unknown>): number {
  const size = LIST_SIZES[`${typeName}.${fieldName}`] ?? DEFAULT_LIST_SIZE;
  return typeof size === "function" ? size(args) : size;
}
