import { Box, Card, CardContent, Container, Link, Typography } from "@mui/material";
import type { ReactNode } from "react";
import { Link as RouterLink } from "react-router-dom";
import { useT } from "../i18n/i18n";
import { BrandMark } from "./BrandMark";

interface Props {
  title: string;
  subtitle?: ReactNode;
  icon?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/** The centred card used by the sign-in screens. */
export function AuthPageLayout({ title, subtitle, icon, children, footer }: Props) {
  const t = useT();
  return (
    <Box
      component="main"
      id="main"
      sx={{
        minHeight: "100vh",
        display: "flex",
        alignItems: { xs: "flex-start", sm: "center" },
        py: { xs: 3, sm: 6 },
        background: (theme) =>
          theme.palette.mode === "light"
            ? "radial-gradient(1200px 600px at 10% -10%, #dbe7f5 0%, transparent 60%), radial-gradient(900px 500px at 110% 110%, #d7efe9 0%, transparent 55%)"
            : "radial-gradient(1200px 600px at 10% -10%, #15263d 0%, transparent 60%), radial-gradient(900px 500px at 110% 110%, #0f2a27 0%, transparent 55%)",
        bgcolor: "background.default",
      }}
    >
      <Container maxWidth="xs" sx={{ px: { xs: 1.5, sm: 2 } }}>
        <Box sx={{ display: "flex", flexDirection: "column", alignItems: "center", mb: 3, gap: 0.5 }}>
          <BrandMark size="large" />
          <Typography variant="body2" color="text.secondary">
            {t("app.tagline")}
          </Typography>
        </Box>
        <Card sx={{ borderRadius: 3 }}>
          <CardContent sx={{ p: { xs: 2.5, sm: 4 } }}>
            {icon && <Box sx={{ display: "flex", justifyContent: "center", mb: 1.5 }}>{icon}</Box>}
            <Typography variant="h1" sx={{ fontSize: "1.6rem", textAlign: icon ? "center" : "left" }}>
              {title}
            </Typography>
            {subtitle && (
              <Typography
                color="text.secondary"
                sx={{ mt: 0.75, mb: 3, textAlign: icon ? "center" : "left" }}
              >
                {subtitle}
              </Typography>
            )}
            {!subtitle && <Box sx={{ mb: 2 }} />}
            {children}
          </CardContent>
        </Card>
        {footer && (
          <Box sx={{ mt: 2.5, textAlign: "center" }}>
            <Typography variant="body2" color="text.secondary">
              {footer}
            </Typography>
          </Box>
        )}
        <Box sx={{ mt: 2, textAlign: "center" }}>
          <Link component={RouterLink} to="/terms" variant="body2" color="text.secondary">
            {t("login.terms")}
          </Link>
        </Box>
      </Container>
    </Box>
  );
}
