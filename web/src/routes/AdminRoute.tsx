import AdminPanelSettingsRoundedIcon from "@mui/icons-material/AdminPanelSettingsRounded";
import { Button } from "@mui/material";
import { Link as RouterLink } from "react-router-dom";
import { PageHeader } from "../components/PageHeader";
import { PlaceholderCard } from "../components/PlaceholderCard";
import { useT } from "../i18n/i18n";

/** /admin — the admin panel arrives in a later issue. */
export default function AdminRoute() {
  const t = useT();
  return (
    <>
      <PageHeader title={t("admin.title")} />
      <PlaceholderCard icon={<AdminPanelSettingsRoundedIcon fontSize="large" />} text={t("admin.text")}>
        <Button component={RouterLink} to="/admin/notion" variant="outlined">
          {t("admin.notionLink")}
        </Button>
      </PlaceholderCard>
    </>
  );
}
