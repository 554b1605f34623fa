/**
 * The Danish thesaurus (LibreOffice's th_da_DK from mythes-da, compacted into lexicon/thesaurus-da.txt.gz by
 * api/scripts/thesaurus-build.ts; licence in lexicon/THESAURUS-LICENSE.md): for a word, the words of its senses
 * (synonyms), the kinds of it it lists (narrower terms) and the words it is a kind of (broader terms), as index
 * terms (stemmed, æøå folded like every indexed word: the data holds them so, see the build script). Unlike the curated lexicon it knows no domain: the query
 * reads a question word the articles do not have as those of its thesaurus words the articles do have
 * (search.query.ts), which works for any corpus. Single words only (a phrase has no one index term).
 *
 * Read once, lazily (about 1 MB gzipped, 30,000 headwords): with the Danish dictionary (search.danish.ts
 * preloadDanish / preloadDanishSoon), or by the first question that needs it.
 */
import fs from "node:fs";
import { gunzipSync } from "node:zlib";

/** Thesaurus words of an index term, each list in the thesaurus's order (its first senses first). */
export interface ThesaurusWords {
  synonyms: string[];
  /** what the word is a kind of ('frist' for 'betalingsfrist') */
  broader: string[];
  /** kinds of the word ('betalingsfrist' for 'frist') */
  narrower: string[];
}

interface Thesaurus {
  /** one line per headword, as in the data (parsed when asked: a few words per question) */
  lines: string[];
  /** headword as written (lowercase) → its line */
  byWord: Map<string, number>;
  /** index term → the lines of the headwords with that term ('indlæg' and 'indlægge') */
  byTerm: Map<string, number[]>;
  /** index term → the headwords' terms it is a kind of (built on first use) */
  broader: Map<string, string[]> | null;
}

/** A headword's line: its index term, its senses' words, its narrower terms. */
interface Entry {
  term: string;
  senses: string[][];
  narrower: string[];
}

const DATA = new URL("./lexicon/thesaurus-da.txt.gz", import.meta.url);

let loaded: Thesaurus | null = null;
let failed = false;

function load(): Thesaurus | null {
  if (loaded || failed) return loaded;
  try {
    const lines = gunzipSync(fs.readFileSync(DATA)).toString("utf8").split("\n");
    const t: Thesaurus = { lines, byWord: new Map(), byTerm: new Map(), broader: null };
    for (let i = 0; i < lines.length; i++) {
      const a = lines[i].indexOf("\t");
      const b = lines[i].indexOf("\t", a + 1);
      if (a < 0 || b < 0) continue;
      t.byWord.set(lines[i].slice(0, a), i);
      const term = lines[i].slice(a + 1, b);
      const same = t.byTerm.get(term);
      if (same) same.push(i);
      else t.byTerm.set(term, [i]);
    }
    loaded = t;
  } catch {
    failed = true; // no data: the query works without it (no thesaurus words)
  }
  return loaded;
}

function entry(t: Thesaurus, line: number): Entry {
  const fields = t.lines[line].split("\t");
  const e: Entry = { term: fields[1], senses: [], narrower: [] };
  for (const field of fields.slice(2)) {
    if (!field.startsWith(">")) e.senses.push(field.split("|"));
    else e.narrower = field.slice(1).split("|");
  }
  return e;
}

function broaderOf(t: Thesaurus, term: string): string[] {
  if (!t.broader) {
    t.broader = new Map();
    for (let i = 0; i < t.lines.length; i++) {
      if (!t.lines[i].includes(">")) continue;
      const e = entry(t, i);
      for (const n of e.narrower) {
        const list = t.broader.get(n);
        if (!list) t.broader.set(n, [e.term]);
        else if (!list.includes(e.term)) list.push(e.term);
      }
    }
  }
  return t.broader.get(term) ?? [];
}

/** Reads the thesaurus now, once (see the module comment). */
export function preloadThesaurus(): void {
  load();
}

/** True once the thesaurus has been read. */
export function thesaurusLoaded(): boolean {
  return loaded !== null;
}

const NONE: ThesaurusWords = { synonyms: [], broader: [], narrower: [] };

/** The entries of a word: the headword as written, else (an inflected form) the headwords with its index term. */
function entriesOf(t: Thesaurus, word: string, term: string): Entry[] {
  const own = t.byWord.get(word.toLowerCase());
  if (own !== undefined) return [entry(t, own)];
  return (t.byTerm.get(term) ?? []).map((i) => entry(t, i));
}

/**
 * The thesaurus words of a question word (as written, and its index term), not the term itself: what its own
 * entry lists (not the headwords that list it in one of their senses: 'stor' is among the senses of 'høj', which
 * does not make 'høj' a word for 'stor'); empty lists when it has none.
 */
export function thesaurusWords(word: string, term: string, broader = false): ThesaurusWords {
  const t = load();
  if (!t || !term) return NONE;
  const synonyms: string[] = [];
  const narrower: string[] = [];
  for (const e of entriesOf(t, word, term)) {
    for (const sense of e.senses)
      for (const x of sense) if (x !== term && !synonyms.includes(x)) synonyms.push(x);
    for (const x of e.narrower) if (x !== term && !narrower.includes(x)) narrower.push(x);
  }
  return { synonyms, broader: broader ? broaderOf(t, term) : [], narrower };
}

/**
 * True when the thesaurus has the word as a headword, as written (a real word: never "corrected" into another).
 * Not by its index term: 'four' is no Danish word for stemming like 'fourer'.
 */
export function isThesaurusWord(word: string): boolean {
  return load()?.byWord.has(word.toLowerCase()) ?? false;
}
