import StorageRoundedIcon from "@mui/icons-material/StorageRounded";
import { Box } from "@mui/material";

/** A database's emoji when it has one (as text, never markup), else the default icon (spec §2). */
export function DatabaseIcon({ icon }: { icon: string | null }) {
  const emoji = icon && icon.length <= 16 && !/^https?:/i.test(icon) ? icon : null;
  return (
    <Box
      aria-hidden="true"
      sx={{
        width: 36,
        height: 36,
        flexShrink: 0,
        borderRadius: 2,
        display: "grid",
        placeItems: "center",
        bgcolor: "action.hover",
        color: "primary.main",
        fontSize: "1.25rem",
        lineHeight: 1,
      }}
    >
      {emoji ?? <StorageRoundedIcon fontSize="small" />}
    </Box>
  );
}
