import LibraryBooksRoundedIcon from "@mui/icons-material/LibraryBooksRounded";
import { PageHeader } from "../components/PageHeader";
import { PlaceholderCard } from "../components/PlaceholderCard";
import { useT } from "../i18n/i18n";

/** /knowledge — articles arrive in a later issue. */
export default function KnowledgeRoute() {
  const t = useT();
  return (
    <>
      <PageHeader title={t("knowledge.title")} />
      <PlaceholderCard icon={<LibraryBooksRoundedIcon fontSize="large" />} text={t("knowledge.text")} />
    </>
  );
}
