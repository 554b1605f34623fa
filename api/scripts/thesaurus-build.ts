/**
 * Compacts LibreOffice's Danish thesaurus (th_da_DK.dat, MyThes format, from the Debian package mythes-da: data by
 * "Foreningen for frit tilgængelige sprogværktøjer", LGPL-2.1 / GPL-2 / MPL-1.1) into the committed data the
 * search reads (api/src/search/lexicon/thesaurus-da.txt.gz; see lexicon/THESAURUS-LICENSE.md). Run by hand when the
 * source changes; the runtime never needs the package:
 *
 *   npx tsx api/scripts/thesaurus-build.ts [th_da_DK.dat] [out.txt.gz]
 *   (default input /usr/share/mythes/th_da_DK.dat, as `apt-get install mythes-da` puts it)
 *
 * MyThes: a first line naming the encoding, then per headword `word|n` and n sense lines `|syn|syn|…`; a
 * synonym marked `(underbegreb)` is a hyponym of the headword (a kind of it). Output, one line per headword:
 * `headword<TAB>its index term<TAB>sense<TAB>sense…` (the headword lowercase as written: 'indlæg' the noun is
 * looked up apart from 'indlægge' the verb, both 'indlaeg' as terms), where a sense is its words joined by `|`, and
 * a last field `>hyponym|hyponym…` when it has any; the senses' words are written as their index terms
 * (normaliseWord: stemmed, æøå folded), so the server reads it without stemming 65,000 words (seconds). Kept: single words of letters (and
 * hyphens inside); annotations such as `(vulgær)` or `(fagudtryk)` are dropped from the word; phrases (a phrase
 * has no one index term), stop words and suffix entries (`-else`) are left out. A change to the analyser's
 * stemmer means running this again (search.thesaurus.test.ts checks the data against it).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { normaliseWord } from "../src/search/search.analyzer";
import { lettersOf } from "../src/search/search.query";

const here = path.dirname(fileURLToPath(import.meta.url));
const input = process.argv[2] ?? "/usr/share/mythes/th_da_DK.dat";
const output = process.argv[3] ?? path.join(here, "../src/search/lexicon/thesaurus-da.txt.gz");

/** How many letters the stemmer may cut off a word: an inflection ('fakturaer'), not a derivation. */
const MAX_STEM_CUT = 3;

/**
 * A single word's index term, or null; also null when the stemmer cut more than an inflection off it: the
 * Snowball stemmer reads derivations as endings ('betragtelig' → 'betrag', 'anseelig' → 'ans', 'muligvis' →
 * 'mul'), and such a term is another word in the articles.
 */
function clean(raw: string): string | null {
  const w = raw.replace(/\([^)]*\)/g, " ").trim();
  if (!/^[\p{L}][\p{L}-]*$/u.test(w)) return null;
  const term = normaliseWord(w);
  if (!term || lettersOf(term) < w.length - MAX_STEM_CUT) return null;
  return term;
}

const lines = fs.readFileSync(input, "utf8").split("\n");
if (!/utf-?8/i.test(lines[0])) throw new Error(`${input}: expected a UTF-8 MyThes file, got "${lines[0]}"`);
const out: string[] = [];
let kept = 0;
for (let i = 1; i < lines.length; ) {
  const line = lines[i++];
  if (!line) continue;
  const bar = line.lastIndexOf("|");
  const count = Number(line.slice(bar + 1));
  if (bar < 0 || !Number.isInteger(count)) throw new Error(`${input}:${i}: expected "word|n", got "${line}"`);
  const written = line
    .slice(0, bar)
    .replace(/\([^)]*\)/g, " ")
    .trim()
    .toLowerCase();
  const head = /^[\p{L}][\p{L}-]*$/u.test(written) ? normaliseWord(written) : "";
  const senses: string[] = [];
  const hyponyms = new Set<string>();
  for (const sense of lines.slice(i, i + count)) {
    const words = new Set<string>();
    for (const field of sense.split("|").slice(1)) {
      const w = clean(field);
      if (!w || w === head) continue;
      if (field.includes("(underbegreb)")) hyponyms.add(w);
      else words.add(w);
    }
    if (words.size > 0) senses.push([...words].join("|"));
  }
  i += count;
  if (!head || (senses.length === 0 && hyponyms.size === 0)) continue;
  const fields = [written, head, ...new Set(senses)];
  if (hyponyms.size > 0) fields.push(`>${[...hyponyms].join("|")}`);
  out.push(fields.join("\t"));
  kept++;
}
const gz = gzipSync(`${out.join("\n")}\n`, { level: 9 });
fs.writeFileSync(output, gz);
console.log(`${kept} headwords → ${output} (${(gz.length / 1024).toFixed(0)} KiB gzipped)`);
