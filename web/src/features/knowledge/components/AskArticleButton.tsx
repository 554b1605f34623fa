import QuestionAnswerRoundedIcon from "@mui/icons-material/QuestionAnswerRounded";
import { Button } from "@mui/material";
import { Link as RouterLink } from "react-router-dom";
import { useT } from "../../../i18n/i18n";
import { askArticleHref } from "../../../lib/askArticle";

/** "Spørg om denne artikel": a new chat whose questions are answered from this article only. */
export function AskArticleButton({ articleId }: { articleId: string }) {
  const t = useT();
  return (
    <Button
      component={RouterLink}
      to={askArticleHref(articleId)}
      variant="outlined"
      startIcon={<QuestionAnswerRoundedIcon />}
      data-testid="ask-article"
      sx={{ textTransform: "none" }}
    >
      {t("chat.scope.askArticle")}
    </Button>
  );
}
