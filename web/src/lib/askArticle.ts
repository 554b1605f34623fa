/**
 * "Spørg om denne artikel" (issue 17): the article view links to the chat with `?askArticle=<id>`, and the chat
 * opens a new session scoped to that article. One place for the address, used by both features.
 */
export const ASK_ARTICLE_PARAM = "askArticle";

/** The chat's address that starts a new chat scoped to one article. */
export function askArticleHref(articleId: string): string {
  return `/?${ASK_ARTICLE_PARAM}=${encodeURIComponent(articleId)}`;
}
