import { Box, Container, Link } from "@mui/material";
import { Suspense } from "react";
import { Outlet } from "react-router-dom";
import { FullPageLoading } from "../../../components/FullPageLoading";
import { useT } from "../../../i18n/i18n";
import { Header } from "./Header";

/** The shell of every signed-in page: skip link, header, main content. */
export function AppLayout() {
  const t = useT();
  return (
    <Box sx={{ minHeight: "100vh", bgcolor: "background.default" }}>
      <Link
        href="#main"
        sx={{
          position: "absolute",
          left: 8,
          top: -48,
          zIndex: 2000,
          px: 2,
          py: 1,
          bgcolor: "background.paper",
          borderRadius: 1,
          "&:focus": { top: 8 },
        }}
      >
        {t("app.skipToContent")}
      </Link>
      <Header />
      <Container
        component="main"
        id="main"
        tabIndex={-1}
        maxWidth="lg"
        sx={{ py: { xs: 3, md: 5 }, outline: "none" }}
      >
        <Suspense fallback={<FullPageLoading />}>
          <Outlet />
        </Suspense>
      </Container>
    </Box>
  );
}
