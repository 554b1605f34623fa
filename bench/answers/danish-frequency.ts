/**
 * How common a word is in Danish at large, beyond the articles: per index term, how many paragraphs of general
 * Danish text hold it (danish-frequency.txt.gz beside this module, built by api/scripts/danish-frequency-build.ts
 * from Debian's Danish documentation and translations; sources and licences in its header). The articles' own IDF
 * says how telling a word is among them only: a word no article has weighs as the rarest word there is, though it
 * may be an everyday word ('stå', 'smide') that says nothing of a topic.
 *
 * Read once, lazily, by the first caller (≈ 50 KB gzipped, ≈ 10,000 terms, a few ms). A diagnostic of the gate
 * tools, not product data: no product path reads it (round 19 moved it here from api/src/search, where data counts
 * in the index's format key). Round 17 weighed the relevance gate's words by it (commonness.ts, gate-cv.ts variants
 * `uncommon=`, `matchcommon=`) and did not keep that, nor did round 19 on the larger calibration data
 * (docs/search-and-answers.md); gate-errors.ts prints it. A missing or unreadable file means no word is common.
 *
 * The text it was counted in is software documentation and UI strings: everyday words of office life outside
 * software are missing or rare in it ('frist' 0 paragraphs, 'bil' 2, 'kaffe' 0), so "absent" means "unknown", not
 * "rare".
 */
import fs from "node:fs";
import { gunzipSync } from "node:zlib";
import { normaliseWord } from "../../api/src/search/search.analyzer";

interface Frequencies {
  /** index term → paragraphs holding it */
  df: Map<string, number>;
  /** log1p of the most common term's paragraphs (commonness's scale) */
  logMax: number;
}

const DATA = new URL("./danish-frequency.txt.gz", import.meta.url);
/** At most this many terms are read (the data holds 60,000 at most; every input bounded). */
export const MAX_FREQUENCY_TERMS = 100_000;

let loaded: Frequencies | null = null;
let failed = false;

function load(): Frequencies | null {
  if (loaded || failed) return loaded;
  try {
    const lines = gunzipSync(fs.readFileSync(DATA)).toString("utf8").split("\n");
    const df = new Map<string, number>();
    let max = 0;
    for (const line of lines) {
      if (line.startsWith("#") || df.size >= MAX_FREQUENCY_TERMS) continue;
      const a = line.indexOf("\t");
      const b = line.indexOf("\t", a + 1);
      if (a <= 0 || b < 0) continue;
      const n = Number(line.slice(a + 1, b));
      if (!(n > 0)) continue;
      df.set(line.slice(0, a), n);
      if (n > max) max = n;
    }
    loaded = max > 0 ? { df, logMax: Math.log1p(max) } : null;
    failed = loaded === null;
  } catch {
    failed = true; // no data: every word counts as uncommon
  }
  return loaded;
}

/** Reads the data now, once (see the module comment). */
export function preloadDanishFrequency(): void {
  load();
}

/** True once the data has been read. */
export function danishFrequencyLoaded(): boolean {
  return loaded !== null;
}

/** How many terms the data holds (0 when it could not be read). */
export function danishFrequencyTerms(): number {
  return load()?.df.size ?? 0;
}

/** Paragraphs of general Danish holding the word's index term (0: not among the common terms, or a stop word). */
export function generalParagraphs(word: string): number {
  const f = load();
  const term = normaliseWord(word);
  return f && term ? (f.df.get(term) ?? 0) : 0;
}

/**
 * How common a word is in Danish at large, 0..1: log(1 + paragraphs holding it) over the same for the most common
 * term ('vælge' 1, 'stå' 0.33, 'smide' 0.21, a word the data lacks 0). A log scale, as a word's frequency is.
 */
export function commonness(word: string): number {
  const f = load();
  if (!f) return 0;
  return Math.log1p(generalParagraphs(word)) / f.logMax;
}
