import { Box } from "@mui/material";
import { ArticleDetail } from "../features/knowledge/components/ArticleDetail";
import { BookmarksView } from "../features/knowledge/components/BookmarksView";
import { CategoryView } from "../features/knowledge/components/CategoryView";
import { OverviewView } from "../features/knowledge/components/OverviewView";
import { useKnowledgeView } from "../features/knowledge/hooks/useKnowledgeView";

/**
 * /knowledge (spec §2): overview with search, a category, an article or the bookmarks — which one is in the address
 * (`?q=`, `?category=`, `?article=`, `?view=bookmarks`), so browser back/forward moves between them.
 */
export default function KnowledgeRoute() {
  const { view, go } = useKnowledgeView();
  return (
    <Box data-testid={`knowledge-${view.kind}`}>
      {view.kind === "article" ? (
        <ArticleDetail key={view.articleId} articleId={view.articleId} />
      ) : view.kind === "bookmarks" ? (
        <BookmarksView />
      ) : view.kind === "category" ? (
        <CategoryView
          key={view.category}
          category={view.category}
          query={view.query}
          onSearch={(query) => go({ ...view, query })}
        />
      ) : (
        <OverviewView query={view.query} onSearch={(query) => go({ kind: "overview", query })} />
      )}
    </Box>
  );
}
