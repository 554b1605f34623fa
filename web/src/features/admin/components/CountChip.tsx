import { Chip, Skeleton } from "@mui/material";

/**
 * A tab's count badge ('{n} brugere', '{n} aktiviteter'); while the count loads (`label` null) a placeholder of
 * its size holds its place, so the search field beside it and the list below do not move when it arrives.
 */
export function CountChip({
  label,
  testId,
  placeholderWidth,
}: {
  label: string | null;
  testId: string;
  /** about the badge's width with a two-digit count */
  placeholderWidth: number;
}) {
  if (label === null) {
    return <Skeleton variant="rounded" width={placeholderWidth} height={32} sx={{ borderRadius: 4 }} />;
  }
  return <Chip label={label} color="primary" variant="outlined" data-testid={testId} aria-live="polite" />;
}
