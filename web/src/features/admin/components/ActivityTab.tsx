import FilterAltOffRoundedIcon from "@mui/icons-material/FilterAltOffRounded";
import ManageSearchRoundedIcon from "@mui/icons-material/ManageSearchRounded";
import SearchRoundedIcon from "@mui/icons-material/SearchRounded";
import { Alert, Box, Button, InputAdornment, MenuItem, Skeleton, Stack, TextField } from "@mui/material";
import { useMemo, useState } from "react";
import type { MessageKey } from "../../../i18n/da";
import { useT } from "../../../i18n/i18n";
import { EmptyState } from "../../knowledge/components/EmptyState";
import { useActivityLog } from "../hooks/useActivityLog";
import { useDebounced } from "../hooks/useDebounced";
import {
  ACTION_FILTERS,
  ACTIVITY_PAGE_SIZE,
  ACTIVITY_SEARCH_MAX_LENGTH,
  type ActionFilter,
  hasFilters,
  NO_FILTERS,
  TIME_FILTERS,
  type TimeFilter,
} from "../lib/activity";
import { USER_SEARCH_DEBOUNCE_MS } from "../lib/users";
import { ActivityItem } from "./ActivityItem";
import { CountChip } from "./CountChip";

/** Activity tab (spec §2): filters (client state), '{n} aktiviteter', entries, live additions, "Vis flere". */
export function ActivityTab() {
  const t = useT();
  const [search, setSearch] = useState("");
  const [action, setAction] = useState<ActionFilter>("all");
  const [time, setTime] = useState<TimeFilter>("all");
  const settledSearch = useDebounced(search, USER_SEARCH_DEBOUNCE_MS);
  const filters = useMemo(() => ({ action, time, search: settledSearch }), [action, time, settledSearch]);
  const log = useActivityLog(filters);
  const filtered = hasFilters({ action, time, search });

  const clear = () => {
    setSearch("");
    setAction(NO_FILTERS.action);
    setTime(NO_FILTERS.time);
  };

  return (
    <Stack spacing={2.5}>
      <Box
        sx={{
          display: "grid",
          gap: 1.5,
          gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr", md: "minmax(240px, 2fr) 1fr 1fr auto" },
          alignItems: "center",
        }}
      >
        <TextField
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder={t("admin.activity.search")}
          autoComplete="off"
          sx={{
            gridColumn: { sm: "1 / -1", md: "auto" },
            "& .MuiInputBase-root": { bgcolor: "background.paper" },
          }}
          slotProps={{
            htmlInput: {
              maxLength: ACTIVITY_SEARCH_MAX_LENGTH,
              "aria-label": t("admin.activity.searchLabel"),
            },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchRoundedIcon aria-hidden="true" />
                </InputAdornment>
              ),
            },
          }}
        />
        <TextField
          select
          id="admin-activity-action"
          label={t("admin.activity.actionLabel")}
          value={action}
          onChange={(e) => setAction(e.target.value as ActionFilter)}
          sx={{ "& .MuiInputBase-root": { bgcolor: "background.paper" } }}
        >
          {ACTION_FILTERS.map((a) => (
            <MenuItem key={a} value={a}>
              {t(`admin.activity.action.${a}` as MessageKey)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          id="admin-activity-time"
          label={t("admin.activity.timeLabel")}
          value={time}
          onChange={(e) => setTime(e.target.value as TimeFilter)}
          sx={{ "& .MuiInputBase-root": { bgcolor: "background.paper" } }}
        >
          {TIME_FILTERS.map((w) => (
            <MenuItem key={w} value={w}>
              {t(`admin.activity.time.${w}` as MessageKey)}
            </MenuItem>
          ))}
        </TextField>
        <Button
          variant="outlined"
          startIcon={<FilterAltOffRoundedIcon />}
          onClick={clear}
          disabled={!filtered}
          sx={{ height: 56 }}
        >
          {t("admin.activity.clear")}
        </Button>
      </Box>

      {!log.error && (
        <Box>
          <CountChip
            label={log.loading ? null : t("admin.activity.count", { n: log.total })}
            testId="admin-activity-count"
            placeholderWidth={112}
          />
        </Box>
      )}

      {log.error && log.entries.length === 0 ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void log.refetch()}>
              {t("admin.retry")}
            </Button>
          }
        >
          {t("admin.activity.loadFailed")}
        </Alert>
      ) : log.loading ? (
        <Stack spacing={1.5} aria-busy="true" aria-label={t("admin.loading")}>
          {[0, 1, 2, 3, 4].map((i) => (
            <Skeleton key={i} variant="rounded" height={84} />
          ))}
        </Stack>
      ) : log.entries.length === 0 ? (
        <EmptyState
          testId="admin-activity-empty"
          icon={<ManageSearchRoundedIcon />}
          title={t("admin.activity.emptyTitle")}
          text={filtered ? t("admin.activity.emptyFiltered") : t("admin.activity.emptyNone")}
        />
      ) : (
        <>
          <Stack
            component="ul"
            spacing={1.25}
            sx={{ listStyle: "none", p: 0, m: 0 }}
            aria-label={t("admin.activity.listLabel")}
          >
            {log.entries.map((entry) => (
              <li key={entry.id}>
                <ActivityItem entry={entry} />
              </li>
            ))}
          </Stack>
          {log.hasMore && (
            <Box sx={{ textAlign: "center" }}>
              <Button variant="outlined" onClick={() => void log.loadMore()} disabled={log.loadingMore}>
                {log.loadingMore
                  ? t("admin.loadingMore")
                  : t("admin.showMore", { n: Math.min(ACTIVITY_PAGE_SIZE, log.total - log.entries.length) })}
              </Button>
            </Box>
          )}
        </>
      )}
    </Stack>
  );
}
