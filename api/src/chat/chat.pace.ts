/**
 * How often a subscriber that keeps up gets an answer's text: the DELTA pace rule, in one place.
 *
 * Every DELTA frame costs this process a GraphQL execution and a socket write per subscriber, whatever its size.
 * A quiet process sends a message's DELTAs at most once per DELTA_PACE_MIN_MS (16 ms: every token of a model
 * streaming 50–100 tokens a second, as it comes). A process streaming many answers to its subscribers at once
 * spends its CPU on frames instead of on the questions still waiting for their first token, so the interval
 * widens with the number of answers streaming here: all of them together get about DELTA_FRAMES_PER_SECOND
 * frames a second, each at least one per DELTA_PACE_MAX_MS (100 ms: still a steady, readable stream). The
 * tokens between two frames are merged into the later one (events/channel.ts), none is dropped: the text
 * arrives complete and in order, and the outcome event (COMPLETED / STOPPED / ERROR) first lets a held DELTA go.
 *
 * Not paced: an answer's first DELTA (the first token reaches the subscriber at once) and a DELTA after an event
 * of another kind or another message.
 */

/** the shortest interval between two DELTA frames of a message (a quiet process) */
export const DELTA_PACE_MIN_MS = 16;
/** the longest: however busy the process, a streaming answer shows progress at least 10 times a second */
export const DELTA_PACE_MAX_MS = 100;
/**
 * DELTA frames a second this process aims at, all answers streaming to its subscribers together: up to 4 such
 * answers at once go at the quickest pace; 25 and more at the slowest (the 400-user mix streams ~25 per process)
 */
export const DELTA_FRAMES_PER_SECOND = 250;

/** The interval between two DELTA frames of one message while `streaming` answers stream to subscribers here. */
export function deltaPaceMs(streaming: number): number {
  const share = Math.ceil((Math.max(0, streaming) * 1_000) / DELTA_FRAMES_PER_SECOND);
  return Math.min(DELTA_PACE_MAX_MS, Math.max(DELTA_PACE_MIN_MS, share));
}

/** an answer with no DELTA for this long no longer counts as streaming (its outcome event went elsewhere) */
export const STREAM_IDLE_MS = 2_000;

/**
 * The answers streaming to subscribers in this process: a message counts from one of its DELTAs until its
 * outcome event, or until STREAM_IDLE_MS without a DELTA (an outcome that never reached here: a process that
 * died). Bounded by the answers that streamed here within STREAM_IDLE_MS.
 */
export class StreamingAnswers {
  /** messageId → its last DELTA (Date.now()) */
  private readonly lastDelta = new Map<string, number>();
  private sweptAt = 0;

  /** One event of a message someone here listens to. */
  note(messageId: string, type: string, now = Date.now()): void {
    if (type === "DELTA") this.lastDelta.set(messageId, now);
    else if (type !== "CREATED") this.lastDelta.delete(messageId);
  }

  /** Answers streaming now. */
  count(now = Date.now()): number {
    if (now - this.sweptAt >= STREAM_IDLE_MS / 4) {
      this.sweptAt = now;
      for (const [id, at] of this.lastDelta) if (now - at >= STREAM_IDLE_MS) this.lastDelta.delete(id);
    }
    return this.lastDelta.size;
  }

  /** The DELTA pace now (deltaPaceMs of count()). */
  paceMs(): number {
    return deltaPaceMs(this.count());
  }
}
