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

interface Entry {
  /** index term of the headword */
  term: string;
  /** its senses' words, as index terms */
  senses: string[][];
  narrower: string[];
}

interface Thesaurus {
  entries: Entry[];
  /** headword as written (lowercase) → its entry */
  byWord: Map<string, number>;
  /** index term → the entries of the headwords with that term ('indlæg' and 'indlægge') */
  byTerm: Map<string, number[]>;
  /** index term → the headwords' terms it is a kind of */
  broader: Map<string, string[]>;
}

const DATA = new URL("./lexicon/thesaurus-da.txt.gz", import.meta.url);

let loaded: Thesaurus | null = null;
let failed = false;

function load(): Thesaurus | null {
  if (loaded || failed) return loaded;
  try {
    const text = gunzipSync(fs.readFileSync(DATA)).toString("utf8");
    const t: Thesaurus = { entries: [], byWord: new Map(), byTerm: new Map(), broader: new Map() };
    for (const line of text.split("\n")) {
      const fields = line.split("\t");
      if (fields.length < 3) continue;
      const [word, term] = fields;
      const entry: Entry = { term, senses: [], narrower: [] };
      for (const field of fields.slice(2)) {
        if (!field.startsWith(">")) entry.senses.push(field.split("|"));
        else entry.narrower = field.slice(1).split("|");
      }
      const id = t.entries.length;
      t.entries.push(entry);
      t.byWord.set(word, id);
      const same = t.byTerm.get(term);
      if (same) same.push(id);
      else t.byTerm.set(term, [id]);
      for (const n of entry.narrower) {
        const list = t.broader.get(n);
        if (!list) t.broader.set(n, [term]);
        else if (!list.includes(term)) list.push(term);
      }
    }
    loaded = t;
  } catch {
    failed = true; // no data: the query works without it (no thesaurus words)
  }
  return loaded;
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
  if (own !== undefined) return [t.entries[own]];
  return (t.byTerm.get(term) ?? []).map((i) => t.entries[i]);
}

/**
 * The thesaurus words of a question word (as written, and its index term), not the term itself: what its own
 * entry lists (not the headwords that list it in one of their senses: 'stor' is among the senses of 'høj', which
 * does not make 'høj' a word for 'stor'); empty lists when it has none.
 */
export function thesaurusWords(word: string, term: string): ThesaurusWords {
  const t = load();
  if (!t || !term) return NONE;
  const synonyms: string[] = [];
  const narrower: string[] = [];
  for (const e of entriesOf(t, word, term)) {
    for (const sense of e.senses) for (const x of sense) if (x !== term && !synonyms.includes(x)) synonyms.push(x);
    for (const x of e.narrower) if (x !== term && !narrower.includes(x)) narrower.push(x);
  }
  return { synonyms, broader: t.broader.get(term) ?? [], narrower };
}

/**
 * True when the thesaurus has the word as a headword, as written (a real word: never "corrected" into another).
 * Not by its index term: 'four' is no Danish word for stemming like 'fourer'.
 */
export function isThesaurusWord(word: string): boolean {
  return load()?.byWord.has(word.toLowerCase()) ?? false;
}
