import { useQuery } from "@apollo/client/react";
import FolderOffRoundedIcon from "@mui/icons-material/FolderOffRounded";
import { Alert, Box, Typography } from "@mui/material";
import { useT } from "../../../i18n/i18n";
import { KnowledgeArticlesQuery } from "../graphql/knowledgeArticles.query";
import { KnowledgeCategoriesQuery } from "../graphql/knowledgeCategories.query";
import { SearchKnowledgeQuery } from "../graphql/searchKnowledge.query";
import { useCategoryDescription } from "../hooks/useCategoryDescription";
import { CATEGORY_CARD_TAGS } from "../lib/excerpt";
import { viewHref } from "../lib/knowledgeView";
import { ArticleCard, CardGrid, CardGridSkeleton } from "./ArticleCard";
import { BackButton } from "./BackButton";
import { CategoryIcon } from "./CategoryIcon";
import { EmptyState } from "./EmptyState";
import { SearchField } from "./SearchField";
import { SearchResults } from "./SearchResults";
import { ViewHeading } from "./ViewHeading";

/** One category: back button, its header, a search inside it, and its articles ('Ingen artikler fundet'). */
export function CategoryView({
  category,
  query,
  onSearch,
}: {
  category: string;
  query: string;
  onSearch: (query: string) => void;
}) {
  const t = useT();
  const describe = useCategoryDescription();
  const categories = useQuery(KnowledgeCategoriesQuery);
  const articles = useQuery(KnowledgeArticlesQuery, { variables: { category } });
  const search = useQuery(SearchKnowledgeQuery, {
    variables: { query, category, limit: 50 },
    skip: !query,
    fetchPolicy: "cache-and-network",
  });
  const style = categories.data?.knowledgeCategories.find((c) => c.name === category);
  const list = articles.data?.knowledgeArticles ?? [];

  return (
    <>
      <BackButton to={viewHref({ kind: "overview", query: "" })} label={t("knowledge.backToOverview")} />
      <Box sx={{ display: "flex", gap: 2, alignItems: "center", mb: 3 }}>
        {style && <CategoryIcon icon={style.icon} color={style.color} size={52} />}
        <Box sx={{ minWidth: 0 }}>
          <ViewHeading>{category}</ViewHeading>
          {style && (
            <Typography color="text.secondary" sx={{ mt: 0.5 }}>
              {describe(style)} · {/* "6 artikler" stays on one line */}
              <Box component="span" sx={{ whiteSpace: "nowrap" }}>
                {t("knowledge.articleCount", { n: list.length })}
              </Box>
            </Typography>
          )}
        </Box>
      </Box>
      <Box sx={{ mb: 4, maxWidth: 720 }}>
        <SearchField
          id="knowledge-category-search"
          query={query}
          onSearch={onSearch}
          label={t("knowledge.searchInCategory", { category })}
          placeholder={t("knowledge.searchPlaceholder")}
        />
      </Box>
      {query ? (
        <SearchResults
          query={query}
          result={search.data?.searchKnowledge}
          loading={search.loading}
          error={Boolean(search.error)}
        />
      ) : articles.error ? (
        <Alert severity="error">{t("knowledge.loadFailed")}</Alert>
      ) : articles.loading && !articles.data ? (
        <CardGridSkeleton />
      ) : list.length === 0 ? (
        <EmptyState
          testId="knowledge-no-articles"
          icon={<FolderOffRoundedIcon />}
          title={t("knowledge.noArticlesTitle")}
          text={t("knowledge.noArticlesText")}
        />
      ) : (
        <CardGrid>
          {list.map((a) => (
            <ArticleCard key={a.id} article={a} maxTags={CATEGORY_CARD_TAGS} headingLevel="h2" />
          ))}
        </CardGrid>
      )}
    </>
  );
}
