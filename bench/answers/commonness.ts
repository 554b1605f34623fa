/**
 * A word's commonness in Danish at large (danish-frequency.ts) as the relevance gate could
 * read it: its telling weight × (1 − λ × commonness), λ `uncovered` for what lacking it counts
 * (QueryConcept.evidenceIdf: an everyday word no article uses is no topic the articles lack) and `matched` for what
 * covering it counts (QueryConcept.idf in the gate's coverage: an everyday word matched in a passage about something
 * else proves little); `minIdf`: only words at least this telling among the articles. Round 17 (issue 15) measured
 * it with gate-cv.ts (`VARIANTS="base;base,uncommon=0.6"`) and the benches and did not keep it in the product (the
 * held-out sets disagreed: docs/search-and-answers.md); gate-errors.ts prints each word's commonness.
 */

import type { QueryConcept } from "../../api/src/search/search.query";
import { commonness } from "./danish-frequency";

export interface GateCommonness {
  uncovered: number;
  matched: number;
  minIdf?: number;
}

export const NO_COMMONNESS: GateCommonness = { uncovered: 0, matched: 0 };

/** The concepts with their telling weight reduced by their commonness in Danish (see the module comment). */
export function withCommonness(concepts: readonly QueryConcept[], common: GateCommonness): QueryConcept[] {
  if (common.uncovered === 0 && common.matched === 0) return [...concepts];
  return concepts.map((c) => {
    if (c.idf < (common.minIdf ?? 0)) return c;
    const k = commonness(c.word);
    if (k === 0) return c;
    return {
      ...c,
      idf: c.idf * (1 - common.matched * k),
      evidenceIdf: (c.evidenceIdf ?? c.idf) * (1 - common.uncovered * k),
    };
  });
}
