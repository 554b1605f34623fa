/**
 * The knowledge screen keeps its whole state in the address (no route has path parameters), so back/forward and
 * shared links work: `?q=` search, `?category=` (with `q` = search inside it), `?article=<id>` (+ `#heading`) and
 * `?view=bookmarks`. An article wins over everything else; the rest is what the user came from.
 */

export const MAX_QUERY_LENGTH = 200;

export type KnowledgeView =
  | { kind: "overview"; query: string }
  | { kind: "category"; category: string; query: string }
  | { kind: "article"; articleId: string }
  | { kind: "bookmarks" };

/** Reads the view from the query string. */
export function readView(params: URLSearchParams): KnowledgeView {
  const article = params.get("article")?.trim();
  if (article) return { kind: "article", articleId: article };
  if (params.get("view") === "bookmarks") return { kind: "bookmarks" };
  const query = (params.get("q") ?? "").trim().slice(0, MAX_QUERY_LENGTH);
  const category = params.get("category")?.trim();
  if (category) return { kind: "category", category, query };
  return { kind: "overview", query };
}

/** The address (path + query) of a view. */
export function viewHref(view: KnowledgeView): string {
  const params = new URLSearchParams();
  switch (view.kind) {
    case "article":
      params.set("article", view.articleId);
      break;
    case "bookmarks":
      params.set("view", "bookmarks");
      break;
    case "category":
      params.set("category", view.category);
      if (view.query) params.set("q", view.query);
      break;
    case "overview":
      if (view.query) params.set("q", view.query);
      break;
  }
  const search = params.toString();
  return search ? `/knowledge?${search}` : "/knowledge";
}
