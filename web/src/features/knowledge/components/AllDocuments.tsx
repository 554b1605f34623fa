import { Box, Button, Typography, useMediaQuery, useTheme } from "@mui/material";
import { useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { useT } from "../../../i18n/i18n";
import { CATEGORY_CARD_TAGS, DOCUMENTS_STEP } from "../lib/excerpt";
import { ArticleCard, type ArticleCardData, CardGrid } from "./ArticleCard";

/** How many steps of cards the overview's history entry shows (kept there, so back from an article keeps them). */
function stepsOf(state: unknown): number {
  const steps = (state as { documentSteps?: unknown } | null)?.documentSteps;
  return typeof steps === "number" && Number.isInteger(steps) && steps > 1 ? steps : 1;
}

/**
 * The overview's 'Alle dokumenter (n)' (spec §Knowledge): the heading counts every article, the grid shows the
 * first DOCUMENTS_STEP of them and "Vis flere" adds the next ones (focus goes to the first added card), so a
 * phone reaches the end of the page without passing every article of every category.
 */
export function AllDocuments({ articles }: { articles: readonly ArticleCardData[] }) {
  const t = useT();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down("sm"), { noSsr: true });
  const location = useLocation();
  const navigate = useNavigate();
  const steps = stepsOf(location.state);
  const shown = Math.min(articles.length, steps * (phone ? DOCUMENTS_STEP.phone : DOCUMENTS_STEP.wide));
  const grid = useRef<HTMLDivElement>(null);
  const focusFrom = useRef<number | null>(null);

  useEffect(() => {
    if (focusFrom.current === null || shown <= focusFrom.current) return;
    grid.current?.querySelectorAll("article")[focusFrom.current]?.querySelector("a")?.focus();
    focusFrom.current = null;
  }, [shown]);

  const showMore = () => {
    focusFrom.current = shown;
    const state = { ...(location.state as object | null), documentSteps: steps + 1 };
    navigate({ search: location.search, hash: location.hash }, { replace: true, state });
  };

  return (
    <Box component="section" aria-labelledby="knowledge-all-title">
      <Typography id="knowledge-all-title" variant="h2" sx={{ fontSize: "1.3rem", mb: 2 }}>
        {t("knowledge.allDocuments", { n: articles.length })}
      </Typography>
      <div ref={grid}>
        <CardGrid>
          {articles.slice(0, shown).map((a) => (
            <ArticleCard key={a.id} article={a} maxTags={CATEGORY_CARD_TAGS} />
          ))}
        </CardGrid>
      </div>
      {shown < articles.length && (
        <Box sx={{ mt: 3, display: "flex", flexDirection: "column", alignItems: "center", gap: 1 }}>
          <Button variant="outlined" onClick={showMore} data-testid="knowledge-show-more">
            {t("knowledge.showMoreDocuments")}
          </Button>
          <Typography variant="body2" color="text.secondary" role="status">
            {t("knowledge.documentsShown", { shown, n: articles.length })}
          </Typography>
        </Box>
      )}
    </Box>
  );
}
