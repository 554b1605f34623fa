import SaveRoundedIcon from "@mui/icons-material/SaveRounded";
import { Alert, Box, Button, Card, CardContent, Divider, Typography } from "@mui/material";
import { useT } from "../../../i18n/i18n";
import { DATABASE_LIST_HEIGHT } from "../constants";
import type { NotionAdminConfigState } from "../hooks/useNotionAdminConfig";
import { summaryFigures } from "../lib/notion";
import { DatabaseRow } from "./DatabaseRow";
import { NotionConfigSkeleton } from "./NotionConfigSkeleton";
import { NotionSummary } from "./NotionSummary";

/** Spec §2's configuration panel: four figures, the 24rem list, the selected counter and the save button. */
export function NotionDatabasesCard({ state }: { state: NotionAdminConfigState }) {
  const t = useT();
  const { databases, selected, saving } = state;
  const count = selected.size;

  return (
    <Card component="section" aria-labelledby="notion-databases-title">
      <CardContent sx={{ p: { xs: 2, md: 3 } }}>
        <Typography id="notion-databases-title" variant="h2" sx={{ fontSize: "1.2rem" }}>
          {t("notion.databases.title")}
        </Typography>
        <Typography color="text.secondary" variant="body2" sx={{ mt: 0.5, mb: 2 }}>
          {t("notion.databases.text")}
        </Typography>
        {state.loading ? (
          <NotionConfigSkeleton />
        ) : state.error ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={state.reload}>
                {t("notion.retry")}
              </Button>
            }
          >
            {t("notion.loadFailed")}
          </Alert>
        ) : (
          <>
            <NotionSummary
              figures={summaryFigures(databases, selected)}
              lastUpdated={state.config?.lastUpdated ?? null}
            />
            <Box
              sx={{
                mt: 2,
                height: DATABASE_LIST_HEIGHT,
                overflowY: "auto",
                border: 1,
                borderColor: "divider",
                borderRadius: 2,
              }}
            >
              {databases.length === 0 ? (
                <Typography color="text.secondary" sx={{ p: 3, textAlign: "center" }}>
                  {t("notion.databases.empty")}
                </Typography>
              ) : (
                <Box
                  component="ul"
                  aria-labelledby="notion-databases-title"
                  sx={{ listStyle: "none", m: 0, p: 0 }}
                  data-testid="notion-database-list"
                >
                  {databases.map((db) => (
                    <DatabaseRow
                      key={db.id}
                      database={db}
                      selected={selected.has(db.id)}
                      disabled={saving}
                      onToggle={() => state.toggle(db.id)}
                    />
                  ))}
                </Box>
              )}
            </Box>
            <Divider sx={{ my: 2 }} />
            <Box
              sx={{
                display: "flex",
                alignItems: "center",
                justifyContent: "space-between",
                gap: 2,
                flexWrap: "wrap",
              }}
            >
              <Typography role="status" data-testid="notion-selected-count" sx={{ fontWeight: 600 }}>
                {t("notion.selected", { n: count })}
              </Typography>
              <Button
                variant="contained"
                startIcon={<SaveRoundedIcon />}
                onClick={() => void state.save()}
                disabled={saving}
              >
                {saving ? t("notion.saving") : t("notion.save")}
              </Button>
            </Box>
          </>
        )}
      </CardContent>
    </Card>
  );
}
