import StorageRoundedIcon from "@mui/icons-material/StorageRounded";
import { PageHeader } from "../components/PageHeader";
import { PlaceholderCard } from "../components/PlaceholderCard";
import { useT } from "../i18n/i18n";

/** /admin/notion — the configuration panel arrives in a later issue. */
export default function AdminNotionRoute() {
  const t = useT();
  return (
    <>
      <PageHeader title={t("adminNotion.title")} />
      <PlaceholderCard icon={<StorageRoundedIcon fontSize="large" />} text={t("adminNotion.text")} />
    </>
  );
}
