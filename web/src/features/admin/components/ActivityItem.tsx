import ExpandMoreRoundedIcon from "@mui/icons-material/ExpandMoreRounded";
import { Avatar, Box, Button, Card, CardContent, Chip, Collapse, Stack, Typography } from "@mui/material";
import { useId, useState } from "react";
import { emailMetaLine } from "../../../components/BreakableEmail";
import { useI18n } from "../../../i18n/i18n";
import { useServerMessage } from "../../../i18n/serverMessage";
import type { ActivityEntry } from "../hooks/useActivityLog";
import { useRelativeTime } from "../hooks/useRelativeTime";
import { actionLabelKey, activityMessage, formatLogDate, formatMetadata } from "../lib/activity";
import { activityStyle } from "./activityStyle";

/**
 * One log entry (spec §2): icon and colour by action, description (by key in the user's language), badge, e-mail,
 * dd/MM/yyyy HH:mm, relative time, 'Detaljer'.
 */
export function ActivityItem({ entry }: { entry: ActivityEntry }) {
  const { t } = useI18n();
  const relative = useRelativeTime();
  const text = useServerMessage();
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const style = activityStyle(entry.action);
  // the action in the reader's language (an action without a name yet shows as logged)
  const labelKey = actionLabelKey(entry.action);
  const label = labelKey ? t(labelKey) : entry.action;
  const json = formatMetadata(entry.metadata);
  return (
    <Card component="article" data-testid="admin-activity-item" data-action={entry.action}>
      <CardContent sx={{ display: "flex", gap: 2, alignItems: "flex-start", "&:last-child": { pb: 2 } }}>
        <Avatar
          aria-hidden="true"
          sx={(theme) => ({
            width: 36,
            height: 36,
            bgcolor:
              style.color === "default" ? theme.palette.action.selected : theme.palette[style.color].main,
            color:
              style.color === "default"
                ? theme.palette.text.primary
                : theme.palette[style.color].contrastText,
            "& svg": { fontSize: 20 },
          })}
        >
          {style.icon}
        </Avatar>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: "center", flexWrap: "wrap" }}>
            <Typography sx={{ fontWeight: 500, overflowWrap: "anywhere" }}>
              {text(activityMessage(entry))}
            </Typography>
            <Chip size="small" variant="outlined" label={label} />
          </Stack>
          <Typography color="text.secondary" sx={{ fontSize: "0.85rem", overflowWrap: "anywhere" }}>
            {emailMetaLine(entry.userEmail, formatLogDate(entry.timestamp), relative(entry.timestamp))}
          </Typography>
          {json && (
            <>
              <Button
                size="small"
                onClick={() => setOpen((o) => !o)}
                aria-expanded={open}
                aria-controls={detailsId}
                endIcon={
                  <ExpandMoreRoundedIcon
                    sx={{ transform: open ? "rotate(180deg)" : "none", transition: "transform 150ms" }}
                  />
                }
                sx={{ mt: 0.5, ml: -1 }}
              >
                {t("admin.activity.details")}
              </Button>
              <Collapse in={open} id={detailsId} unmountOnExit>
                {/* metadata is user-influenced: shown as text, never as markup */}
                <Box
                  component="pre"
                  sx={{
                    m: 0,
                    mt: 0.5,
                    p: 1.5,
                    borderRadius: 1,
                    bgcolor: "action.hover",
                    fontSize: "0.8rem",
                    overflowX: "auto",
                    whiteSpace: "pre-wrap",
                    overflowWrap: "anywhere",
                  }}
                >
                  {json}
                </Box>
              </Collapse>
            </>
          )}
        </Box>
      </CardContent>
    </Card>
  );
}
