import ArrowBackRoundedIcon from "@mui/icons-material/ArrowBackRounded";
import HomeRoundedIcon from "@mui/icons-material/HomeRounded";
import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Container,
  Divider,
  Link,
  Stack,
  Typography,
} from "@mui/material";
import { Link as RouterLink, useNavigate } from "react-router-dom";
import { BrandMark } from "../components/BrandMark";
import { useI18n } from "../i18n/i18n";
import { termsDa } from "../i18n/terms.da";
import { termsEn } from "../i18n/terms.en";
import { TERMS_COPYRIGHT_YEAR, TERMS_LAST_UPDATED, TERMS_VERSION } from "../i18n/terms.types";
import { formatDate } from "../lib/dates";

/** /terms: static terms of use, nine sections, with a home link and a back button. */
export default function TermsRoute() {
  const { t, language, locale } = useI18n();
  const navigate = useNavigate();
  const sections = language === "en" ? termsEn : termsDa;
  const goBack = () => (window.history.length > 1 ? navigate(-1) : navigate("/"));

  return (
    <Box sx={{ minHeight: "100vh", bgcolor: "background.default", py: { xs: 3, md: 6 } }}>
      <Container maxWidth="md" component="main" id="main">
        <Box
          sx={{
            display: "flex",
            alignItems: "center",
            justifyContent: "space-between",
            gap: 1,
            mb: 3,
            flexWrap: "wrap",
          }}
        >
          <Box
            component={RouterLink}
            to="/"
            sx={{ color: "text.primary", textDecoration: "none", borderRadius: 1 }}
          >
            <BrandMark />
          </Box>
          <Stack direction="row" spacing={1}>
            <Button startIcon={<ArrowBackRoundedIcon />} onClick={goBack} variant="outlined" size="small">
              {t("common.back")}
            </Button>
            <Button
              startIcon={<HomeRoundedIcon />}
              component={RouterLink}
              to="/"
              variant="contained"
              size="small"
            >
              {t("nav.home")}
            </Button>
          </Stack>
        </Box>
        <Card>
          <CardContent sx={{ p: { xs: 2.5, md: 5 } }}>
            <Typography variant="h1">{t("terms.title")}</Typography>
            <Box sx={{ display: "flex", gap: 1, alignItems: "center", mt: 1.5, flexWrap: "wrap" }}>
              <Typography color="text.secondary" data-testid="terms-updated">
                {t("terms.lastUpdated", { date: formatDate(TERMS_LAST_UPDATED, locale) })}
              </Typography>
              <Chip
                size="small"
                label={TERMS_VERSION}
                variant="outlined"
                aria-label={t("terms.version", { version: TERMS_VERSION })}
              />
            </Box>
            <Box component="nav" aria-label={t("terms.contents")} sx={{ mt: 3 }}>
              <Typography variant="subtitle2" component="h2" color="text.secondary" sx={{ mb: 1 }}>
                {t("terms.contents")}
              </Typography>
              <Box component="ol" sx={{ m: 0, pl: 0, listStyle: "none", columns: { sm: 2 }, columnGap: 4 }}>
                {sections.map((s) => (
                  <li key={s.id}>
                    <Link href={`#${s.id}`} variant="body2">
                      {s.title}
                    </Link>
                  </li>
                ))}
              </Box>
            </Box>
            <Divider sx={{ my: 3 }} />
            <Stack spacing={3.5}>
              {sections.map((s) => (
                <Box
                  component="section"
                  key={s.id}
                  id={s.id}
                  aria-labelledby={`${s.id}-title`}
                  sx={{ scrollMarginTop: 16 }}
                >
                  <Typography variant="h2" id={`${s.id}-title`} sx={{ fontSize: "1.2rem", mb: 1 }}>
                    {s.title}
                  </Typography>
                  {s.paragraphs.map((p) => (
                    <Typography key={p} sx={{ mb: 1.25, lineHeight: 1.7 }}>
                      {p}
                    </Typography>
                  ))}
                  {s.bullets && (
                    <Box component="ul" sx={{ m: 0, pl: 3, lineHeight: 1.7 }}>
                      {s.bullets.map((b) => (
                        <li key={b}>
                          <Typography component="span">{b}</Typography>
                        </li>
                      ))}
                    </Box>
                  )}
                </Box>
              ))}
            </Stack>
          </CardContent>
        </Card>
        <Typography
          variant="body2"
          color="text.secondary"
          component="footer"
          sx={{ textAlign: "center", mt: 3 }}
        >
          {t("terms.copyright", { year: TERMS_COPYRIGHT_YEAR })} · {TERMS_VERSION}
        </Typography>
      </Container>
    </Box>
  );
}
