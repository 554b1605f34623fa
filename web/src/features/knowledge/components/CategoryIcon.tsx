import AccountBalanceRoundedIcon from "@mui/icons-material/AccountBalanceRounded";
import ArticleRoundedIcon from "@mui/icons-material/ArticleRounded";
import GavelRoundedIcon from "@mui/icons-material/GavelRounded";
import GroupsRoundedIcon from "@mui/icons-material/GroupsRounded";
import ListAltRoundedIcon from "@mui/icons-material/ListAltRounded";
import { Box } from "@mui/material";
import type { ComponentType } from "react";

// The icon names the API sends (knowledge/categories.ts); anything else gets the article icon. Importing only these
// keeps the rest of @mui/icons-material out of the bundle.
const ICONS: Record<string, ComponentType<{ fontSize?: "small" | "medium" | "large" | "inherit" }>> = {
  AccountBalance: AccountBalanceRoundedIcon,
  ListAlt: ListAltRoundedIcon,
  Groups: GroupsRoundedIcon,
  Gavel: GavelRoundedIcon,
  Article: ArticleRoundedIcon,
};

const HEX = /^#[0-9a-f]{6}$/i;

/** The category's icon on a tile of its colour (white on the colour; the API's colours are dark enough for that). */
export function CategoryIcon({ icon, color, size = 44 }: { icon: string; color: string; size?: number }) {
  const Icon = ICONS[icon] ?? ArticleRoundedIcon;
  return (
    <Box
      aria-hidden="true"
      sx={{
        width: size,
        height: size,
        flexShrink: 0,
        borderRadius: 2.5,
        display: "grid",
        placeItems: "center",
        bgcolor: HEX.test(color) ? color : "#546e7a",
        color: "#ffffff",
        "& svg": { fontSize: size * 0.55 },
      }}
    >
      <Icon />
    </Box>
  );
}
