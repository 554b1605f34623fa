import { Chip, type ChipProps } from "@mui/material";

/**
 * A chip that says stored text (a tag, a category, a searched phrase). MUI's chip is never wider than its box and
 * cuts a longer label with "…"; this one also gives the whole text as its tooltip. Its box must be able to shrink
 * (a flex item needs `minWidth: 0` / `maxWidth: "100%"`).
 */
export function TextChip({ label, ...props }: Omit<ChipProps, "label" | "title"> & { label: string }) {
  return <Chip label={label} title={label} {...props} />;
}
