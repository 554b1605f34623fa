import BookmarkAddOutlinedIcon from "@mui/icons-material/BookmarkAddOutlined";
import BookmarkRoundedIcon from "@mui/icons-material/BookmarkRounded";
import { Button } from "@mui/material";
import { useT } from "../../../i18n/i18n";
import { useBookmark } from "../hooks/useBookmark";

/** 'Tilføj bogmærke' / 'Fjern bogmærke' for one article (the label says what a press does). */
export function BookmarkButton({ articleId }: { articleId: string }) {
  const t = useT();
  const { bookmarked, loading, pending, toggle } = useBookmark(articleId);
  return (
    <Button
      variant={bookmarked ? "contained" : "outlined"}
      startIcon={bookmarked ? <BookmarkRoundedIcon /> : <BookmarkAddOutlinedIcon />}
      disabled={loading || pending}
      onClick={() => void toggle()}
      sx={{ flexShrink: 0 }}
    >
      {t(bookmarked ? "knowledge.removeBookmark" : "knowledge.addBookmark")}
    </Button>
  );
}
