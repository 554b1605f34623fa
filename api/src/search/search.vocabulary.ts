/**
 * The words the indexed articles contain: which index terms exist (and in how many articles), which indexed
 * terms start with a given prefix (compounds, someone still typing) and which indexed word a misspelt word
 * most likely meant (typo correction). Counted per article so a word disappears with the last article
 * that had it (a deleted article's words are no longer typo targets).
 */
import { boundedEditDistance, fold, normaliseWord, typoBudget, wordSpans } from "./search.analyzer";

/** The fields of an article whose words count (title, category, subcategory, tags, content). */
export interface VocabularyArticle {
  title: string;
  category: string;
  subcategory?: string | null;
  tags: readonly string[];
  content: string;
}

/** An indexed word a query word was corrected to: its index term and the word as an article writes it. */
export interface Correction {
  term: string;
  word: string;
}

/** A vocabulary as plain data: articles counted, [term, articles], [folded word, term, word, articles]. */
export interface VocabularyDump {
  articles: number;
  terms: [string, number][];
  words: [string, string, string, number][];
}

export class Vocabulary {
  /** Index term → number of articles containing it. */
  private readonly termCounts = new Map<string, number>();
  /** Folded word as written → its index term and the number of articles containing it (typo correction). */
  private readonly words = new Map<string, { term: string; word: string; count: number }>();
  /** termCounts' keys sorted (prefix lookups); null after a change, rebuilt on the next lookup. */
  private sortedTerms: string[] | null = null;
  /** termCounts' keys reversed and sorted (suffix lookups: the heads of compounds). */
  private sortedReversed: string[] | null = null;
  /** Articles counted in. */
  private articleTotal = 0;

  /** Distinct words seen (folded). */
  get size(): number {
    return this.words.size;
  }

  /** True when some indexed article contains this index term. */
  hasTerm(term: string): boolean {
    return this.termCounts.has(term);
  }

  /** How many indexed articles contain this index term. */
  articlesWith(term: string): number {
    return this.termCounts.get(term) ?? 0;
  }

  /** How many articles are indexed. */
  get articles(): number {
    return this.articleTotal;
  }

  /**
   * Inverse document frequency of a term (BM25's): high for a rare term, near 0 for one every article has; a
   * term no article has gets the highest.
   */
  idf(df: number): number {
    const n = this.articleTotal;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Count an article's words in (+1, when indexed) or out (-1, when removed). */
  count(a: VocabularyArticle, delta: 1 | -1): void {
    this.articleTotal = Math.max(0, this.articleTotal + delta);
    const text = [a.title, a.category, a.subcategory ?? "", ...a.tags, a.content].join("\n");
    const written = new Set<string>();
    for (const w of wordSpans(text)) written.add(w.word.toLowerCase());
    const keys = new Map<string, string>(); // folded word → word as written (first seen)
    for (const w of written) {
      const key = fold(w);
      if (!keys.has(key)) keys.set(key, w);
    }
    const terms = new Set<string>();
    for (const [key, word] of keys) {
      const term = normaliseWord(word);
      if (!term) continue;
      terms.add(term);
      const entry = this.words.get(key);
      const count = (entry?.count ?? 0) + delta;
      if (count <= 0) this.words.delete(key);
      else this.words.set(key, { term, word: entry?.word ?? word, count });
    }
    for (const t of terms) {
      const count = (this.termCounts.get(t) ?? 0) + delta;
      if (count <= 0) this.termCounts.delete(t);
      else this.termCounts.set(t, count);
    }
    this.sortedTerms = null;
    this.sortedReversed = null;
  }

  /** The counts as plain data (the persisted index); restore() reads them back. */
  dump(): VocabularyDump {
    return {
      articles: this.articleTotal,
      terms: [...this.termCounts],
      words: [...this.words].map(([key, e]) => [key, e.term, e.word, e.count]),
    };
  }

  /** Replaces the counts with a dump(). */
  restore(d: VocabularyDump): void {
    this.clear();
    this.articleTotal = d.articles;
    for (const [term, count] of d.terms) this.termCounts.set(term, count);
    for (const [key, term, word, count] of d.words) this.words.set(key, { term, word, count });
  }

  clear(): void {
    this.termCounts.clear();
    this.words.clear();
    this.sortedTerms = null;
    this.sortedReversed = null;
    this.articleTotal = 0;
  }

  /**
   * At most `limit` indexed terms that end with `suffix` and are longer than it by at least `minHead`
   * letters: compounds whose head is the term ('klagefrist' for 'frist').
   */
  termsWithSuffix(suffix: string, limit: number, minHead = 3): string[] {
    if (!this.sortedReversed) {
      this.sortedReversed = [...this.termCounts.keys()].map((t) => [...t].reverse().join("")).sort();
    }
    const terms = this.sortedReversed;
    const key = [...suffix].reverse().join("");
    let lo = 0;
    let hi = terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (terms[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < terms.length && out.length < limit && terms[i].startsWith(key); i++) {
      if (terms[i].length - key.length >= minHead) out.push([...terms[i]].reverse().join(""));
    }
    return out;
  }

  /** At most `limit` indexed terms starting with `prefix`, in sorted order (binary search). */
  termsWithPrefix(prefix: string, limit: number): string[] {
    if (!this.sortedTerms) this.sortedTerms = [...this.termCounts.keys()].sort();
    const terms = this.sortedTerms;
    let lo = 0;
    let hi = terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (terms[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < terms.length && out.length < limit && terms[i].startsWith(prefix); i++)
      out.push(terms[i]);
    return out;
  }

  /**
   * The closest indexed word to a word that is not in the index, within the typo budget (none for short
   * words); among equally close words, the one more articles contain.
   */
  correct(word: string): Correction | undefined {
    const key = fold(word);
    const budget = typoBudget(key.length);
    if (budget === 0) return undefined;
    // the word as written against the words as written; else its stem against the index terms (the typo sits in
    // an inflection the articles write otherwise: 'betalingsfirst' for the articles' 'betalingsfristen')
    return this.closest(key, budget, (w) => w) ?? this.closest(normaliseWord(word), budget, (_, e) => e.term);
  }

  private closest(
    key: string,
    budget: number,
    target: (written: string, entry: { term: string }) => string,
  ): Correction | undefined {
    if (!key) return undefined;
    let best: { term: string; word: string; distance: number; count: number } | undefined;
    for (const [w, entry] of this.words) {
      const t = target(w, entry);
      if (Math.abs(t.length - key.length) > budget) continue;
      const d = boundedEditDistance(key, t, budget);
      if (d > budget) continue;
      if (!best || d < best.distance || (d === best.distance && entry.count > best.count)) {
        best = { term: entry.term, word: entry.word, distance: d, count: entry.count };
      }
    }
    return best && { term: best.term, word: best.word };
  }
}
