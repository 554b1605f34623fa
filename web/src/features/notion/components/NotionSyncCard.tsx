import ErrorRoundedIcon from "@mui/icons-material/ErrorRounded";
import SyncRoundedIcon from "@mui/icons-material/SyncRounded";
import TaskAltRoundedIcon from "@mui/icons-material/TaskAltRounded";
import { Box, Button, Card, CardContent, LinearProgress, Skeleton, Typography } from "@mui/material";
import { useI18n } from "../../../i18n/i18n";
import { formatDate } from "../../../lib/dates";
import type { NotionSyncState } from "../hooks/useNotionSync";
import { notionFailureText, syncPercent } from "../lib/notion";
import { SyncFailures } from "./SyncFailures";

const TRIGGER_KEYS = {
  config: "notion.sync.trigger.config",
  manual: "notion.sync.trigger.manual",
  schedule: "notion.sync.trigger.schedule",
  cli: "notion.sync.trigger.cli",
} as const;

const DATE_TIME: Intl.DateTimeFormatOptions = {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
};

/** 'Synkronisér nu', the live progress of a running sync, and the last sync's result with its failed pages. */
export function NotionSyncCard({ state }: { state: NotionSyncState }) {
  const { t, locale, language } = useI18n();
  const { run, running } = state;
  const percent = run ? syncPercent(run) : null;
  const trigger =
    run && run.trigger in TRIGGER_KEYS ? t(TRIGGER_KEYS[run.trigger as keyof typeof TRIGGER_KEYS]) : null;

  let status: React.ReactNode;
  if (state.loading) status = <Skeleton variant="rounded" height={48} />;
  else if (!run) status = <Typography color="text.secondary">{t("notion.sync.never")}</Typography>;
  else if (running)
    status = (
      <Box data-testid="notion-sync-running">
        <Typography sx={{ fontWeight: 600, mb: 1 }}>
          {run.pagesSeen > 0
            ? t("notion.sync.running", { done: run.pagesDone + run.pagesFailed, seen: run.pagesSeen })
            : t("notion.sync.runningNoCount")}
        </Typography>
        <LinearProgress
          variant={percent === null ? "indeterminate" : "determinate"}
          value={percent ?? undefined}
          aria-label={t("notion.sync.progress")}
          sx={{ height: 8, borderRadius: 4 }}
        />
      </Box>
    );
  else {
    const ok = run.state === "succeeded";
    status = (
      <Box data-testid="notion-sync-result" data-state={run.state}>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
          {ok ? (
            <TaskAltRoundedIcon color="success" aria-hidden="true" />
          ) : (
            <ErrorRoundedIcon color="error" aria-hidden="true" />
          )}
          <Typography sx={{ fontWeight: 600 }}>
            {t(ok ? "notion.sync.succeeded" : "notion.sync.failed")}
          </Typography>
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {[
            t("notion.sync.finishedAt", {
              date: formatDate(run.finishedAt ?? run.startedAt, locale, DATE_TIME),
            }),
            trigger,
          ]
            .filter(Boolean)
            .join(" · ")}
        </Typography>
        {run.error && (
          <Typography variant="body2" color="error" sx={{ mt: 0.5, overflowWrap: "anywhere" }}>
            {notionFailureText({ text: run.error, key: run.errorKey, params: run.errorParams }, language)}
          </Typography>
        )}
      </Box>
    );
  }

  return (
    <Card component="section" aria-labelledby="notion-sync-title">
      <CardContent sx={{ p: { xs: 2, md: 3 } }}>
        <Box
          sx={{
            display: "flex",
            alignItems: "center",
            justifyContent: "space-between",
            gap: 1.5,
            flexWrap: "wrap",
            mb: 2,
          }}
        >
          <Typography id="notion-sync-title" variant="h2" sx={{ fontSize: "1.2rem" }}>
            {t("notion.sync.title")}
          </Typography>
          <Button
            variant="outlined"
            startIcon={<SyncRoundedIcon />}
            onClick={() => void state.start()}
            disabled={running || state.starting}
          >
            {state.starting ? t("notion.sync.starting") : t("notion.sync.now")}
          </Button>
        </Box>
        <Box role="status" aria-live="polite">
          {status}
        </Box>
        {run && !state.loading && (
          <Box
            component="dl"
            sx={{
              m: 0,
              mt: 2,
              display: "grid",
              gap: 1,
              gridTemplateColumns: "repeat(2, minmax(0, 1fr))",
            }}
            data-testid="notion-sync-counts"
          >
            {(
              [
                ["notion.sync.seen", run.pagesSeen],
                ["notion.sync.done", run.pagesDone],
                ["notion.sync.failedPages", run.pagesFailed],
                ["notion.sync.removed", run.articlesRemoved],
              ] as const
            ).map(([key, value]) => (
              <Box key={key} sx={{ display: "flex", flexDirection: "column-reverse" }}>
                <Typography component="dt" variant="caption" color="text.secondary">
                  {t(key)}
                </Typography>
                <Typography component="dd" sx={{ m: 0, fontWeight: 700 }}>
                  {value.toLocaleString(locale)}
                </Typography>
              </Box>
            ))}
          </Box>
        )}
        {run && !running && <SyncFailures failures={run.failures} />}
      </CardContent>
    </Card>
  );
}
