/**
 * The heartbeats of the answers generating in this process (chat.runner.ts): every `everyMs`, each answer's
 * partial text (when it grew) and a fresh heartbeatAt are saved, for all of them in ONE store command (an
 * unordered bulkWrite of one update per answer, at most HEARTBEATS_PER_COMMAND each) instead of one update per
 * answer on its own timer: 50 answers generating together cost one write per beat, not fifty.
 * Guarantee kept: an answer's heartbeatAt is at most `everyMs` (plus the write's time) old while it generates
 * (its message is stored with heartbeatAt = now, and the first shared beat comes within `everyMs`), so crash
 * recovery (staleAfterMs) still tells live answers from dead ones. A failed beat is dropped (the next one
 * follows), as before.
 */
import type mongoose from "mongoose";
import { ChatMessageModel } from "./chat.model";
import { IN_PROGRESS } from "./chat.rules";

/** updates per bulkWrite at most */
export const HEARTBEATS_PER_COMMAND = 500;

interface Beating {
  id: mongoose.Types.ObjectId;
  /** the partial text when it changed since the last beat, else null */
  progress: () => string | null;
}

export class HeartbeatWriter {
  private readonly beating = new Map<string, Beating>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly everyMs: number) {}

  /** Beat for this answer until the returned function is called. */
  add(id: mongoose.Types.ObjectId, progress: () => string | null): () => void {
    const key = String(id);
    this.beating.set(key, { id, progress });
    if (!this.timer) {
      this.timer = setInterval(() => void this.beat(), this.everyMs);
      this.timer.unref();
    }
    return () => {
      if (this.beating.get(key)?.id !== id) return;
      this.beating.delete(key);
      if (this.beating.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  /** One beat of every answer generating: one command (per HEARTBEATS_PER_COMMAND answers). */
  private async beat(): Promise<void> {
    const now = new Date();
    const ops = [...this.beating.values()].map(({ id, progress }) => {
      const set: Record<string, unknown> = { heartbeatAt: now };
      const partial = progress();
      if (partial !== null) {
        set.content = partial;
        set.status = "streaming";
      }
      return { updateOne: { filter: { _id: id, status: { $in: IN_PROGRESS } }, update: { $set: set } } };
    });
    for (let i = 0; i < ops.length; i += HEARTBEATS_PER_COMMAND) {
      await ChatMessageModel.collection
        .bulkWrite(ops.slice(i, i + HEARTBEATS_PER_COMMAND), { ordered: false })
        .catch(() => undefined);
    }
  }
}
