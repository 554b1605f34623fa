import OpenInNewRoundedIcon from "@mui/icons-material/OpenInNewRounded";
import SourceRoundedIcon from "@mui/icons-material/SourceRounded";
import { Link, Typography } from "@mui/material";
import type { KnowledgeArticleQuery } from "../../../gql/graphql";
import { useT } from "../../../i18n/i18n";
import { safeHttpUrl } from "../../../lib/urls";

type Source = NonNullable<KnowledgeArticleQuery["knowledgeArticle"]>["source"];

/** Where an article comes from: 'Fra Notion: <database>' linking to the page, or 'Eksempelindhold'. */
export function ArticleSource({ source }: { source: Source }) {
  const t = useT();
  const label =
    source.kind === "notion"
      ? source.databaseTitle
        ? t("notion.source.notion", { database: source.databaseTitle })
        : t("notion.source.notionPlain")
      : source.kind === "sample"
        ? t("notion.source.sample")
        : t("notion.source.api");
  const href = source.kind === "notion" ? safeHttpUrl(source.url) : null;
  return (
    <Typography
      variant="body2"
      sx={{ display: "flex", alignItems: "center", gap: 0.75, minWidth: 0 }}
      data-testid="article-source"
      data-kind={source.kind}
    >
      <SourceRoundedIcon fontSize="small" aria-hidden="true" />
      {href ? (
        <Link
          href={href}
          target="_blank"
          rel="noopener noreferrer"
          title={t("notion.source.open")}
          sx={{ display: "inline-flex", alignItems: "center", gap: 0.5, overflowWrap: "anywhere" }}
        >
          {label}
          <OpenInNewRoundedIcon sx={{ fontSize: "0.95rem" }} aria-hidden="true" />
        </Link>
      ) : (
        <span>{label}</span>
      )}
    </Typography>
  );
}
