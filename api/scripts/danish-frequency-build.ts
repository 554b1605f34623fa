/**
 * Builds how common each word is in Danish at large (bench/answers/danish-frequency.txt.gz, read by
 * bench/answers/danish-frequency.ts, a diagnostic of the gate tools) from the general Danish text Debian's Danish
 * documentation and translation packages hold. Run by hand (the runtime and CI never need the packages):
 *
 *   apt-get install -y libreoffice-help-da gimp-help-da debian-edu-doc-da manpages-da libreoffice-l10n-da \
 *     firefox-esr-l10n-da thunderbird-l10n-da
 *   npx tsx api/scripts/danish-frequency-build.ts [root] [out.txt.gz]
 *   (root: where the packages' files are, default /; `dpkg-deb -x` of the .deb files into one folder works too)
 *
 * Sources (each a body of running Danish text; licences from the packages' copyright files, named in the data's
 * header): LibreOffice's help (libreoffice-help-da, MPL-2.0), GIMP's manual (gimp-help-da, GFDL-1.2+), the Debian
 * Edu manual (debian-edu-doc-da, bookworm edition, GPL-2+), the Danish man pages (manpages-da, GPL-3+), and the user
 * interface strings of LibreOffice (libreoffice-l10n-da, MPL-2.0), Firefox and Thunderbird (their language packs,
 * MPL-2.0). Not used: dict-freedict-dan-eng (a word list, no running text: it says nothing of how common a word is).
 *
 * Text: HTML without its tags, scripts, styles, code and preformatted blocks (entities decoded); man pages without
 * their macros and font escapes; a UI string is a paragraph of its own. A paragraph counts only when it is Danish:
 * at least DANISH_SHARE of its words (letters only, 2+ letters) are words of the Danish hunspell dictionary the
 * search uses (search.danish.ts isDanishWord), fewer than ENGLISH_SHARE of them are English function words, and it
 * has at least MIN_WORDS of them (English passages, code and option lists drop out). Each kept paragraph is tokenised as the search indexes text (wordSpans + normaliseWord:
 * Snowball-stemmed, æøå folded, stop words dropped), and per index term the data counts the paragraphs holding it
 * (document frequency over paragraphs) and its occurrences. A paragraph repeated word for word (help pages repeat
 * notes and menu paths) counts once.
 *
 * Output: `# ` header lines (sources, licences, `# paragraphs N`, `# tokens N`), then `term<TAB>df<TAB>count` for
 * the TOP_TERMS terms with the highest document frequency (from MIN_DF paragraphs up), most common first.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";
import { normaliseWord, wordSpans } from "../src/search/search.analyzer";
import { isDanishWord } from "../src/search/search.danish";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = process.argv[2] ?? "/";
const output = process.argv[3] ?? path.join(here, "../../bench/answers/danish-frequency.txt.gz");

/** A paragraph is Danish when this share of its words are in the Danish dictionary (the dictionary lacks many compounds; an English paragraph scores far below; env DANISH_SHARE). */
const DANISH_SHARE = Number(process.env.DANISH_SHARE ?? 0.6);
/** …and it has at least this many words (a menu label of one word says nothing either way). */
const MIN_WORDS = 3;
/** How many terms the data keeps (the most common first). */
const TOP_TERMS = 60_000;
/** A term in fewer paragraphs is left out (a typo, a name, a file name). */
const MIN_DF = 2;
/**
 * English function words (no Danish word is spelt so): a paragraph with ENGLISH_SHARE of its words among them is
 * English (the GIMP manual is half untranslated; the Danish dictionary knows many English loans and names).
 */
const ENGLISH = new Set([
  "the",
  "and",
  "of",
  "is",
  "are",
  "you",
  "this",
  "that",
  "with",
  "to",
  "it",
  "be",
  "can",
  "if",
  "which",
  "from",
  "or",
  "will",
]);
const ENGLISH_SHARE = 0.05;
/** Files larger than this are skipped (every input bounded; the largest help page is ~300 KB). */
const MAX_FILE_BYTES = 20 * 1024 * 1024;

interface Source {
  name: string;
  licence: string;
  paragraphs: number;
  kept: number;
}

const df = new Map<string, number>();
const count = new Map<string, number>();
const seen = new Set<string>();
let paragraphs = 0;
let tokens = 0;

/** Counts one paragraph when it is Danish; returns whether it was kept. */
function addParagraph(text: string): boolean {
  const t = text.replace(/\s+/g, " ").trim();
  if (t.length < 10 || seen.has(t)) return false;
  seen.add(t);
  const spans = wordSpans(t);
  const words = spans.filter((s) => s.word.length >= 2 && /^\p{L}+$/u.test(s.word));
  if (words.length < MIN_WORDS) return false;
  let english = 0;
  for (const w of words) if (ENGLISH.has(w.word.toLowerCase())) english++;
  if (english >= ENGLISH_SHARE * words.length) return false;
  let danish = 0;
  for (const w of words) if (isDanishWord(w.word)) danish++;
  if (danish < DANISH_SHARE * words.length) return false;
  const terms = new Set<string>();
  for (const s of spans) {
    if (!/^\p{L}+$/u.test(s.word)) continue; // numbers, versions, ids: no word
    const term = normaliseWord(s.word);
    if (!term) continue;
    tokens++;
    count.set(term, (count.get(term) ?? 0) + 1);
    terms.add(term);
  }
  for (const term of terms) df.set(term, (df.get(term) ?? 0) + 1);
  paragraphs++;
  return true;
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  aelig: "æ",
  AElig: "Æ",
  oslash: "ø",
  Oslash: "Ø",
  aring: "å",
  Aring: "Å",
  eacute: "é",
  hellip: "…",
  ndash: "–",
  mdash: "—",
  laquo: "«",
  raquo: "»",
};

function decodeEntities(s: string): string {
  return s.replace(/&(#x?[0-9a-fA-F]+|[a-zA-Z]+);/g, (m, e: string) => {
    if (e.startsWith("#x")) return String.fromCodePoint(Number.parseInt(e.slice(2), 16));
    if (e.startsWith("#")) return String.fromCodePoint(Number.parseInt(e.slice(1), 10));
    return ENTITIES[e] ?? m;
  });
}

/** An HTML page's paragraphs: block elements end a paragraph; code, scripts and styles are dropped. */
function htmlParagraphs(html: string): string[] {
  const body = html
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<(script|style|pre|code|kbd|samp|tt|head)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(
      /<\/?(p|div|li|ul|ol|h[1-6]|td|th|tr|table|dt|dd|dl|br|section|article|blockquote|title)\b[^>]*>/gi,
      "\n\n",
    )
    .replace(/<[^>]*>/g, " ");
  return decodeEntities(body).split(/\n\s*\n/);
}

/** A man page's paragraphs: text lines between paragraph macros, fonts and escapes removed. */
function manParagraphs(troff: string): string[] {
  const out: string[] = [];
  let cur: string[] = [];
  const flush = () => {
    if (cur.length) out.push(cur.join(" "));
    cur = [];
  };
  for (const raw of troff.split("\n")) {
    if (/^['.]\\"/.test(raw)) continue; // comment
    const macro = raw.match(/^[.']\s*([A-Za-z]+)\s*(.*)$/);
    if (macro) {
      const [, name, args] = macro;
      if (/^(SH|SS|PP|P|LP|TP|IP|HP|br|sp|RS|RE|nf|fi|TH|EX|EE)$/.test(name)) flush();
      if (/^(B|I|BI|IB|BR|RB|IR|RI|SM|SB)$/.test(name)) cur.push(args.replace(/"/g, ""));
      continue; // section titles (NAVN, SYNOPSIS) and the rest of the macros are no running text
    }
    if (raw.trim() === "") {
      flush();
      continue;
    }
    cur.push(raw.replace(/\\f(\[[^\]]*\]|\(..|.)/g, "").replace(/\\(\(..|\[[^\]]*\]|.)/g, " "));
  }
  flush();
  return out;
}

/** The translations of a gettext .mo file (each string a paragraph; plural forms apart). */
function moStrings(buf: Buffer): string[] {
  const magic = buf.readUInt32LE(0);
  const read = magic === 0x950412de ? buf.readUInt32LE.bind(buf) : buf.readUInt32BE.bind(buf);
  const n = read(8);
  const table = read(16);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const len = read(table + i * 8);
    const off = read(table + i * 8 + 4);
    if (len === 0) continue;
    out.push(
      ...buf
        .subarray(off, off + len)
        .toString("utf8")
        .split("\0"),
    );
  }
  return out.map((s) => s.replace(/~/g, "")); // LibreOffice's accelerator marks
}

/** The values of a language pack's Fluent (.ftl) and .properties files. */
function xpiStrings(file: string): string[] {
  const list = execFileSync("unzip", ["-Z1", file], { encoding: "utf8", maxBuffer: 16 << 20 }).split("\n");
  const out: string[] = [];
  for (const entry of list.filter((e) => /\.(ftl|properties)$/.test(e))) {
    const text = execFileSync("unzip", ["-p", file, entry], { encoding: "utf8", maxBuffer: 16 << 20 });
    for (const line of text.split("\n")) {
      const m = line.match(/^\s*(?:\.?[\w.-]+\s*[=:])\s*(.+)$/);
      if (m && !line.trimStart().startsWith("#"))
        out.push(m[1].replace(/\{[^}]*\}/g, " ").replace(/<[^>]*>/g, " "));
    }
  }
  return out;
}

function filesUnder(dir: string, ext: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p, ext));
    else if (e.isFile() && ext.test(e.name) && fs.statSync(p).size <= MAX_FILE_BYTES) out.push(p);
  }
  return out.sort();
}

const at = (p: string) => path.join(root, p);
const sources: Source[] = [];

function run(name: string, licence: string, texts: Iterable<string[]>): void {
  const s: Source = { name, licence, paragraphs: 0, kept: 0 };
  for (const ps of texts)
    for (const p of ps) {
      s.paragraphs++;
      if (addParagraph(p)) s.kept++;
    }
  sources.push(s);
  console.log(`${name}: ${s.kept} of ${s.paragraphs} paragraphs kept`);
}

function* html(files: string[]) {
  for (const f of files) yield htmlParagraphs(fs.readFileSync(f, "utf8"));
}

run(
  "LibreOffice help (libreoffice-help-da)",
  "MPL-2.0",
  html(filesUnder(at("usr/share/libreoffice/help/da"), /\.html$/)),
);
run("GIMP manual (gimp-help-da)", "GFDL-1.2+", html(filesUnder(at("usr/share/gimp/2.0/help/da"), /\.html$/)));
run(
  "Debian Edu bookworm manual (debian-edu-doc-da)",
  "GPL-2+",
  html(filesUnder(at("usr/share/doc/debian-edu-doc-da"), /^debian-edu-bookworm-manual\.html$/)),
);
run(
  "Danish man pages (manpages-da)",
  "GPL-3+",
  (function* () {
    for (const f of filesUnder(at("usr/share/man/da"), /\.gz$/))
      yield manParagraphs(gunzipSync(fs.readFileSync(f)).toString("utf8"));
  })(),
);
run(
  "LibreOffice UI (libreoffice-l10n-da)",
  "MPL-2.0",
  (function* () {
    for (const f of filesUnder(at("usr/lib/libreoffice/program/resource/da"), /\.mo$/))
      yield moStrings(fs.readFileSync(f));
  })(),
);
run(
  "Firefox and Thunderbird UI (firefox-esr-l10n-da, thunderbird-l10n-da)",
  "MPL-2.0",
  (function* () {
    for (const dir of ["usr/lib/firefox-esr", "usr/lib/thunderbird"])
      for (const f of filesUnder(at(dir), /^langpack-da@.*\.xpi$/)) yield xpiStrings(f);
  })(),
);

const kept = [...df.entries()]
  .filter(([, d]) => d >= MIN_DF)
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  .slice(0, TOP_TERMS);
if (paragraphs === 0)
  throw new Error(`no Danish text under ${root}: install the packages named in this script`);
const header = [
  "# How common each word is in Danish at large: per index term (search.analyzer normaliseWord: Snowball-stemmed,",
  "# æøå folded) the number of paragraphs of general Danish text holding it, and its occurrences.",
  "# Built by api/scripts/danish-frequency-build.ts from Debian's Danish documentation and translations; word",
  "# counts are facts, the texts they were counted in are:",
  ...sources.map((s) => `#   ${s.name}: ${s.kept} paragraphs, ${s.licence}`),
  `# paragraphs ${paragraphs}`,
  `# tokens ${tokens}`,
  `# distinct ${df.size}`,
];
const body = kept.map(([t, d]) => `${t}\t${d}\t${count.get(t)}`);
fs.writeFileSync(output, gzipSync(`${[...header, ...body].join("\n")}\n`, { level: 9 }));
console.log(
  `paragraphs ${paragraphs}, tokens ${tokens}, distinct terms ${df.size}; kept ${kept.length} ` +
    `(df ≥ ${kept.at(-1)?.[1]}) → ${output} (${fs.statSync(output).size} bytes)`,
);
