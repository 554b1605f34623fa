import ForumRoundedIcon from "@mui/icons-material/ForumRounded";
import { Button } from "@mui/material";
import { Link as RouterLink } from "react-router-dom";
import { PageHeader } from "../components/PageHeader";
import { PlaceholderCard } from "../components/PlaceholderCard";
import { useAuth } from "../features/auth/hooks/useAuth";
import { useT } from "../i18n/i18n";

/** / — the chat arrives in a later issue. */
export default function HomeRoute() {
  const t = useT();
  const { user } = useAuth();
  return (
    <>
      <PageHeader title={t("home.greeting", { name: user?.name ?? "" })} subtitle={t("home.title")} />
      <PlaceholderCard icon={<ForumRoundedIcon fontSize="large" />} text={t("home.text")}>
        <Button component={RouterLink} to="/knowledge" variant="contained">
          {t("home.toKnowledge")}
        </Button>
      </PlaceholderCard>
    </>
  );
}
