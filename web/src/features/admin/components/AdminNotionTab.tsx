import HelpOutlineRoundedIcon from "@mui/icons-material/HelpOutlineRounded";
import { Button, Card, CardContent, Chip, Stack, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router-dom";
import { useT } from "../../../i18n/i18n";

/**
 * The Notion tab until the real configuration panel (notion-web) replaces it: the connection state and a link to
 * /admin/notion. This build's schema has no notionStatus yet, so the state is "unknown".
 */
export function AdminNotionTab() {
  const t = useT();
  return (
    <Card component="section" aria-labelledby="admin-notion-title">
      <CardContent>
        <Stack spacing={2} sx={{ alignItems: "flex-start" }}>
          <Typography id="admin-notion-title" component="h2" variant="h3">
            {t("admin.notion.title")}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
            <Typography color="text.secondary">{t("admin.notion.state")}</Typography>
            <Chip
              icon={<HelpOutlineRoundedIcon aria-hidden="true" />}
              label={t("admin.notion.unknown")}
              variant="outlined"
              data-testid="admin-notion-state"
            />
          </Stack>
          <Typography color="text.secondary">{t("admin.notion.text")}</Typography>
          <Button component={RouterLink} to="/admin/notion" variant="contained">
            {t("admin.notion.open")}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
