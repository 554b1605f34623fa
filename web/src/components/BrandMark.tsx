import MenuBookRoundedIcon from "@mui/icons-material/MenuBookRounded";
import { Box, Typography } from "@mui/material";
import { useT } from "../i18n/i18n";

/** The product logo and name. */
export function BrandMark({ size = "medium" }: { size?: "medium" | "large" }) {
  const t = useT();
  const box = size === "large" ? 44 : 34;
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1.25 }}>
      <Box
        aria-hidden="true"
        sx={{
          width: box,
          height: box,
          borderRadius: 2,
          display: "grid",
          placeItems: "center",
          bgcolor: "primary.main",
          color: "primary.contrastText",
        }}
      >
        <MenuBookRoundedIcon fontSize={size === "large" ? "medium" : "small"} />
      </Box>
      <Typography
        component="span"
        sx={{ fontWeight: 750, fontSize: size === "large" ? "1.5rem" : "1.15rem", letterSpacing: "-0.01em" }}
      >
        {t("app.name")}
      </Typography>
    </Box>
  );
}
