import type { ReactNode } from "react";

/**
 * An e-mail address that, when it does not fit its line, wraps after the "@" (a `<wbr>`), not one letter before the
 * end as `overflow-wrap: anywhere` alone did at 390 px ("…@minksekretariatet.d" / "k"). Keep `overflow-wrap:
 * anywhere` on the box for a local part or domain that is itself too long. Text content is unchanged.
 */
export function breakableEmail(value: string): ReactNode {
  const at = value.indexOf("@");
  if (at < 0) return value;
  return (
    <>
      {value.slice(0, at + 1)}
      <wbr />
      {value.slice(at + 1)}
    </>
  );
}

/**
 * A meta line "e-mail · part · part" (activity entries, feedback comments): the parts that are there, joined by
 * " · ", with the e-mail breakable after its "@".
 */
export function emailMetaLine(email: string | null | undefined, ...parts: string[]): ReactNode {
  const rest = parts.filter(Boolean).join(" · ");
  if (!email) return rest;
  return (
    <>
      {breakableEmail(email)}
      {rest && ` · ${rest}`}
    </>
  );
}
