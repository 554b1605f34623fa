import { Box, Link, Typography } from "@mui/material";
import { useI18n } from "../../../i18n/i18n";
import { safeHttpUrl } from "../../../lib/urls";
import { MAX_FAILURES_SHOWN } from "../constants";
import type { NotionSyncRun } from "../hooks/useNotionSync";
import { notionFailureText } from "../lib/notion";

/** The pages the last sync could not fetch: title (linked to Notion) and why, in the reader's language. */
export function SyncFailures({ failures }: { failures: NotionSyncRun["failures"] }) {
  const { t, language } = useI18n();
  if (failures.length === 0) return null;
  const shown = failures.slice(0, MAX_FAILURES_SHOWN);
  return (
    <Box component="section" aria-labelledby="notion-failures-title" sx={{ mt: 2 }}>
      <Typography id="notion-failures-title" variant="h3" sx={{ fontSize: "1rem", mb: 1 }}>
        {t("notion.sync.failuresTitle", { n: failures.length })}
      </Typography>
      <Box component="ul" sx={{ m: 0, p: 0, listStyle: "none" }} data-testid="notion-sync-failures">
        {shown.map((f) => {
          const title = f.title?.trim() || t("notion.sync.untitledPage");
          const href = safeHttpUrl(f.url);
          return (
            <Box
              component="li"
              key={f.pageId}
              sx={{ py: 1, borderTop: 1, borderColor: "divider", overflowWrap: "anywhere" }}
            >
              {href ? (
                <Link href={href} target="_blank" rel="noopener noreferrer" sx={{ fontWeight: 600 }}>
                  {title}
                </Link>
              ) : (
                <Typography component="span" sx={{ fontWeight: 600 }}>
                  {title}
                </Typography>
              )}
              <Typography variant="body2" color="text.secondary">
                {notionFailureText({ text: f.message, key: f.messageKey, params: f.messageParams }, language)}
              </Typography>
            </Box>
          );
        })}
      </Box>
      {failures.length > shown.length && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t("notion.sync.moreFailures", { n: failures.length - shown.length })}
        </Typography>
      )}
    </Box>
  );
}
