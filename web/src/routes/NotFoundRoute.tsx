import SearchOffRoundedIcon from "@mui/icons-material/SearchOffRounded";
import { Box, Button, Card, CardContent, Container, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router-dom";
import { useT } from "../i18n/i18n";

/** Any unknown path. */
export default function NotFoundRoute() {
  const t = useT();
  return (
    <Box
      component="main"
      id="main"
      sx={{ minHeight: "100vh", display: "flex", alignItems: "center", bgcolor: "background.default", py: 4 }}
    >
      <Container maxWidth="sm">
        <Card>
          <CardContent sx={{ p: { xs: 3, sm: 5 }, textAlign: "center" }}>
            <SearchOffRoundedIcon color="error" sx={{ fontSize: 56, mb: 1 }} aria-hidden="true" />
            <Typography variant="h1" sx={{ fontSize: { xs: "1.6rem", sm: "2rem" } }}>
              {t("notFound.title")}
            </Typography>
            <Typography color="text.secondary" sx={{ mt: 1.5, mb: 3 }}>
              {t("notFound.hint")}
            </Typography>
            <Button component={RouterLink} to="/" variant="contained">
              {t("common.goHome")}
            </Button>
          </CardContent>
        </Card>
      </Container>
    </Box>
  );
}
