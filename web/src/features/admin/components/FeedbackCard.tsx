import ThumbDownOffAltRoundedIcon from "@mui/icons-material/ThumbDownOffAltRounded";
import ThumbUpOffAltRoundedIcon from "@mui/icons-material/ThumbUpOffAltRounded";
import { Box, Divider, LinearProgress, Stack, Typography } from "@mui/material";
import { emailMetaLine } from "../../../components/BreakableEmail";
import type { AdminStatsQuery } from "../../../gql/graphql";
import { useI18n } from "../../../i18n/i18n";
import { useRelativeTime } from "../hooks/useRelativeTime";
import { upShare } from "../lib/stats";
import { SectionCard, SectionEmpty } from "./SectionCard";

type Feedback = AdminStatsQuery["adminStats"]["feedback"];

/** Answer feedback: thumbs up/down, the share of up, and the latest comments (plain text). */
export function FeedbackCard({ feedback }: { feedback: Feedback }) {
  const { t } = useI18n();
  const relative = useRelativeTime();
  const share = upShare(feedback.up, feedback.down);
  return (
    <SectionCard id="admin-feedback" title={t("admin.stats.feedback")} testId="admin-feedback">
      {share === null ? (
        <SectionEmpty>{t("admin.stats.noFeedback")}</SectionEmpty>
      ) : (
        <Stack spacing={2}>
          <Box>
            <Stack direction="row" spacing={3} sx={{ alignItems: "center" }}>
              <Stack direction="row" spacing={0.75} sx={{ alignItems: "center" }}>
                <ThumbUpOffAltRoundedIcon color="success" aria-hidden="true" />
                <Typography>{t("admin.stats.up", { n: feedback.up })}</Typography>
              </Stack>
              <Stack direction="row" spacing={0.75} sx={{ alignItems: "center" }}>
                <ThumbDownOffAltRoundedIcon color="error" aria-hidden="true" />
                <Typography>{t("admin.stats.down", { n: feedback.down })}</Typography>
              </Stack>
            </Stack>
            <Typography color="text.secondary" sx={{ mt: 1, fontSize: "0.9rem" }}>
              {t("admin.stats.upShare", { n: share })}
            </Typography>
            <LinearProgress
              variant="determinate"
              color="success"
              value={share}
              aria-hidden="true"
              sx={{ mt: 0.5, height: 8, borderRadius: 4 }}
            />
          </Box>
          {feedback.latestComments.length > 0 && (
            <>
              <Divider />
              <Typography component="h3" sx={{ fontWeight: 600, fontSize: "0.95rem" }}>
                {t("admin.stats.latestComments")}
              </Typography>
              <Stack component="ul" spacing={1.25} sx={{ listStyle: "none", p: 0, m: 0 }}>
                {feedback.latestComments.map((c, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: comments have no id; the list is replaced whole
                  <li key={i}>
                    <Stack direction="row" spacing={1} sx={{ alignItems: "flex-start" }}>
                      {c.rating === "up" ? (
                        <ThumbUpOffAltRoundedIcon
                          fontSize="small"
                          color="success"
                          titleAccess={t("admin.stats.rated.up")}
                        />
                      ) : (
                        <ThumbDownOffAltRoundedIcon
                          fontSize="small"
                          color="error"
                          titleAccess={t("admin.stats.rated.down")}
                        />
                      )}
                      <Box sx={{ minWidth: 0 }}>
                        <Typography sx={{ overflowWrap: "anywhere", whiteSpace: "pre-line" }}>
                          {c.comment}
                        </Typography>
                        <Typography color="text.secondary" sx={{ fontSize: "0.8rem" }}>
                          {emailMetaLine(c.userEmail, relative(c.at))}
                        </Typography>
                      </Box>
                    </Stack>
                  </li>
                ))}
              </Stack>
            </>
          )}
        </Stack>
      )}
    </SectionCard>
  );
}
