import ArrowBackRoundedIcon from "@mui/icons-material/ArrowBackRounded";
import { Button } from "@mui/material";
import { Link as RouterLink } from "react-router-dom";

/** Back to a view of the knowledge screen (a link, so it can also be opened in a new tab). */
export function BackButton({ to, label }: { to: string; label: string }) {
  return (
    <Button component={RouterLink} to={to} startIcon={<ArrowBackRoundedIcon />} sx={{ mb: 2, ml: -1 }}>
      {label}
    </Button>
  );
}
