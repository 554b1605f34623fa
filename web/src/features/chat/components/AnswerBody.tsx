import InfoOutlinedIcon from "@mui/icons-material/InfoOutlined";
import ManageSearchRoundedIcon from "@mui/icons-material/ManageSearchRounded";
import { Alert, Box, Chip, Link, Typography } from "@mui/material";
import { type ComponentProps, memo, useMemo } from "react";
import { Link as RouterLink } from "react-router-dom";
import { Markdown, MarkdownLink } from "../../../components/Markdown";
import { useI18n } from "../../../i18n/i18n";
import { articleHref } from "../../../lib/anchors";
import { formatDate } from "../../../lib/dates";
import { citationLabel, citationLinks } from "../lib/citations";
import type { Message } from "../lib/messages";
import { withoutScopeNote } from "../lib/scope";
import { ScopeBadge } from "./ScopeBadge";

/** A link in an answer: citation markers stay in the app (same tab); every other link is a safe external link. */
function AnswerLink(props: ComponentProps<"a"> & { node?: unknown; "data-citation"?: string }) {
  const { t } = useI18n();
  const number = props["data-citation"];
  if (number && props.href) {
    const label = typeof props.title === "string" ? props.title : "";
    return (
      <Link
        component={RouterLink}
        to={props.href}
        data-citation={number}
        aria-label={t("chat.citationLabel", { number, label })}
        title={label}
        underline="none"
        sx={{
          fontSize: "0.78em",
          fontWeight: 700,
          verticalAlign: "super",
          lineHeight: 1,
          px: 0.4,
          mx: 0.15,
          borderRadius: 0.75,
          bgcolor: "action.selected",
          "&:hover, &:focus-visible": { bgcolor: "primary.main", color: "primary.contrastText" },
        }}
      >
        {number}
      </Link>
    );
  }
  return <MarkdownLink {...props} />;
}

/** The answer's text, its labels, warnings and sources. Memoised: a streamed token re-renders only its row. */
export const AnswerBody = memo(function AnswerBody({ message }: { message: Message }) {
  const { t, locale } = useI18n();
  const citations = message.citations;
  const plugins = useMemo(() => [citationLinks(citations)], [citations]);
  const used = message.usedNumbers
    .map((n) => citations.find((c) => c.number === n))
    .filter((c): c is Message["citations"][number] => Boolean(c));
  const notCovered = message.mode === "no_sources" || message.knowledgeGap;
  const content = message.scope ? withoutScopeNote(message.content) : message.content;

  return (
    <Box>
      {message.mode === "retrieval" && (
        <Chip
          icon={<ManageSearchRoundedIcon />}
          label={t("chat.retrievalLabel")}
          size="small"
          variant="outlined"
          color="info"
          sx={{ mb: 1, height: "auto", py: 0.5, "& .MuiChip-label": { whiteSpace: "normal" } }}
        />
      )}
      {message.scope && <ScopeBadge scope={message.scope} />}
      {notCovered ? (
        <Box
          data-testid="answer-not-covered"
          sx={{
            display: "flex",
            gap: 1.25,
            p: 1.5,
            borderRadius: 2,
            border: 1,
            borderStyle: "dashed",
            borderColor: "divider",
            bgcolor: "action.hover",
          }}
        >
          <InfoOutlinedIcon color="action" sx={{ mt: 0.25 }} aria-hidden />
          <Box>
            <Typography variant="subtitle2" component="p">
              {t("chat.notCovered")}
            </Typography>
            <Markdown>{content}</Markdown>
          </Box>
        </Box>
      ) : (
        <Markdown remarkPlugins={plugins} components={{ a: AnswerLink as never }}>
          {content}
        </Markdown>
      )}
      {message.freshnessWarnings.map((w) => (
        <Alert key={`${w.articleId}-${w.number}`} severity="warning" variant="outlined" sx={{ mt: 1, py: 0 }}>
          {t("chat.freshness", {
            title: w.title,
            number: w.number,
            date: formatDate(w.updatedAt, locale),
          })}
        </Alert>
      ))}
      {used.length > 0 && (
        <Box component="section" aria-label={t("chat.sources")} sx={{ mt: 1.5 }}>
          <Typography variant="overline" component="h3" color="text.secondary" sx={{ lineHeight: 2 }}>
            {t("chat.sources")}
          </Typography>
          <Box component="ol" sx={{ m: 0, pl: 0, listStyle: "none", display: "grid", gap: 0.5 }}>
            {used.map((c) => (
              <Box component="li" key={c.number} sx={{ display: "flex", gap: 1, alignItems: "baseline" }}>
                <Typography variant="caption" color="text.secondary" sx={{ minWidth: 24 }}>
                  [{c.number}]
                </Typography>
                <Link
                  component={RouterLink}
                  to={articleHref(c.articleId, c.headingPath)}
                  variant="body2"
                  data-source={c.number}
                >
                  {citationLabel(c)}
                </Link>
              </Box>
            ))}
          </Box>
        </Box>
      )}
    </Box>
  );
});
