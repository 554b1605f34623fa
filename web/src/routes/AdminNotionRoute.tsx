import InfoOutlinedIcon from "@mui/icons-material/InfoOutlined";
import { Alert, AlertTitle, Box } from "@mui/material";
import { PageHeader } from "../components/PageHeader";
import { NotionConfigPanel } from "../features/notion";
import { useT } from "../i18n/i18n";

const INFO_KEYS = [
  "notion.info.choose",
  "notion.info.analysis",
  "notion.info.suggestions",
  "notion.info.central",
  "notion.info.sync",
] as const;

/**
 * /admin/notion (spec §2): the admin knowledge configuration, an info box with the five points, and the panel
 * (which requests the connection status itself).
 */
export default function AdminNotionRoute() {
  const t = useT();
  return (
    <>
      <PageHeader title={t("adminNotion.title")} subtitle={t("notion.page.subtitle")} />
      <Alert severity="info" icon={<InfoOutlinedIcon />} sx={{ mb: 3 }} data-testid="notion-info">
        <AlertTitle>{t("notion.info.title")}</AlertTitle>
        <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
          {INFO_KEYS.map((key) => (
            <li key={key}>{t(key)}</li>
          ))}
        </Box>
      </Alert>
      <NotionConfigPanel />
    </>
  );
}
