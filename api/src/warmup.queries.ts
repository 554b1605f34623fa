/** The warm-up's typical searches and chat questions (Danish; the sample articles answer them): warmup.ts, and
 * bench/search-heap.ts, which measures the index after the same work. A module of its own, so the bench imports no more. */
export const WARMUP_SEARCHES = ["klagefrist", "ferie", "aktindsigt", "persondata", "mødereferat", "tilskud"];
export const WARMUP_QUESTIONS = [
  "Hvad er klagefristen for en afgørelse?",
  "Hvordan søger jeg om aktindsigt?",
  "Hvor mange feriedage har jeg?",
  "Hvordan skriver jeg et godt mødereferat?",
];
