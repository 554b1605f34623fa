import SearchOffRoundedIcon from "@mui/icons-material/SearchOffRounded";
import { Alert, Box, Typography } from "@mui/material";
import type { SearchKnowledgeQuery } from "../../../gql/graphql";
import { useT } from "../../../i18n/i18n";
import { cardTitle, SEARCH_CARD_TAGS } from "../lib/excerpt";
import { ArticleCard, CardGrid, CardGridSkeleton } from "./ArticleCard";
import { EmptyState } from "./EmptyState";
import { HighlightedText } from "./HighlightedText";

type Result = SearchKnowledgeQuery["searchKnowledge"];

/** The corrected query the server searched, when it replaced misspelt words ("Viste resultater for …"). */
export function correctedQuery(result: Pick<Result, "query" | "corrections">): string | null {
  if (result.corrections.length === 0) return null;
  let text = result.query;
  for (const c of result.corrections) {
    text = text.replace(new RegExp(c.from.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "iu"), c.to);
  }
  return text;
}

/** 'Søgeresultater for ...' with the server's snippets, the typo line, and 'Ingen resultater fundet'. */
export function SearchResults({
  query,
  result,
  loading,
  error,
}: {
  query: string;
  result: Result | undefined;
  loading: boolean;
  error: boolean;
}) {
  const t = useT();
  const corrected = result ? correctedQuery(result) : null;
  return (
    <Box component="section" aria-labelledby="knowledge-results-title" sx={{ mt: 1 }}>
      <Box sx={{ display: "flex", alignItems: "baseline", gap: 1.5, flexWrap: "wrap", mb: 1 }}>
        <Typography id="knowledge-results-title" variant="h2" sx={{ fontSize: "1.3rem" }}>
          {t("knowledge.searchResultsFor", { query })}
        </Typography>
        {result && (
          <Typography color="text.secondary" data-testid="knowledge-result-count">
            {t("knowledge.resultCount", { n: result.total })}
          </Typography>
        )}
      </Box>
      {corrected && (
        <Typography
          color="text.secondary"
          sx={{ mb: 2, fontStyle: "italic" }}
          data-testid="knowledge-corrected"
        >
          {t("knowledge.showingResultsFor", { query: corrected })}
        </Typography>
      )}
      <Box sx={{ mt: 2 }} aria-live="polite" aria-busy={loading}>
        {error ? (
          <Alert severity="error">{t("knowledge.loadFailed")}</Alert>
        ) : loading && !result ? (
          <CardGridSkeleton />
        ) : result && result.hits.length === 0 ? (
          <EmptyState
            testId="knowledge-no-results"
            icon={<SearchOffRoundedIcon />}
            title={t("knowledge.noResultsTitle")}
            text={t("knowledge.noResultsText")}
          />
        ) : (
          <CardGrid>
            {result?.hits.map((hit) => (
              <ArticleCard
                key={hit.article.id}
                article={hit.article}
                maxTags={SEARCH_CARD_TAGS}
                title={<HighlightedText text={cardTitle(hit.article.title)} ranges={hit.titleHighlights} />}
                excerpt={<HighlightedText text={hit.snippet} ranges={hit.highlights} />}
              />
            ))}
          </CardGrid>
        )}
      </Box>
    </Box>
  );
}
