export interface TermsSection {
  id: string;
  title: string;
  paragraphs: string[];
  bullets?: string[];
}

/** Spec §2/§9: last updated 22 June 2025, version v1.0, copyright 2025. */
export const TERMS_LAST_UPDATED = "2025-06-22";
export const TERMS_VERSION = "v1.0";
export const TERMS_COPYRIGHT_YEAR = 2025;
