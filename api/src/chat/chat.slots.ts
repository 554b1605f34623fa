/**
 * Answer slots counted in the store, for several API processes over one store: each answer in flight holds a
 * lease in `chat_answer_slots`, one document per slot number (`<userId>:<n>`, n < maxInFlightPerUser), so
 * taking a slot is one atomic write (an upsert that only matches a free or expired slot) whatever the process.
 * A lease expires SLOT_LEASE_MS after its last renewal; the process renews the leases it holds every
 * SLOT_RENEW_MS, so the slots of a crashed process free themselves within SLOT_LEASE_MS.
 */
import mongoose from "mongoose";
import { logger } from "../logger";
import { storeCollection } from "./chat.store";
import { randomHex } from "./random-hex";

export const SLOTS_COLLECTION = "chat_answer_slots";
/** a slot not renewed for this long is free again (a crashed process) */
export const SLOT_LEASE_MS = 15_000;
/** how often a process renews the leases it holds */
export const SLOT_RENEW_MS = 5_000;
/** slots freed in one command at most */
const RELEASE_BATCH_MAX = 200;

interface SlotDoc {
  _id: string;
  lease: string;
  worker: string;
  exp: Date;
}

function collection() {
  return storeCollection<SlotDoc>(SLOTS_COLLECTION);
}

export class StoreAnswerSlots {
  /** slot id → lease, for the slots this process holds */
  private readonly held = new Map<string, string>();
  /** released here, waiting for their delete in the store (releaseInStore) */
  private releasing: Array<{ _id: string; lease: string }> = [];
  /** slot id → its release being written (an acquire of that slot here waits for it) */
  private readonly unreleased = new Map<string, Promise<unknown>>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly worker: string,
    private readonly leaseMs = SLOT_LEASE_MS,
    renewMs = SLOT_RENEW_MS,
  ) {
    this.timer = setInterval(() => void this.renew(), renewMs);
    this.timer.unref();
  }

  /**
   * Take one of the user's `max` slots; returns its release, or null when all are held. The slots this process
   * holds are not asked for (they are taken): one round trip when the user's other answers run here.
   */
  async acquire(userId: string, max: number): Promise<(() => void) | null> {
    const lease = randomHex(8);
    // a slot this process has just released is free in the store only once its release is written
    const prefix = `${userId}:`;
    if (this.releasing.some((s) => s._id.startsWith(prefix))) void this.flushReleases();
    for (let n = 0; n < max; n++) await this.unreleased.get(`${prefix}${n}`);
    for (let n = 0; n < max; n++) {
      const id = `${userId}:${n}`;
      if (this.held.has(id)) continue;
      const now = new Date();
      try {
        await collection().updateOne(
          { _id: id, exp: { $lt: now } },
          { $set: { lease, worker: this.worker, exp: new Date(now.getTime() + this.leaseMs) } },
          { upsert: true },
        );
      } catch (err) {
        if ((err as { code?: number }).code === 11000) continue; // held (and not expired)
        throw err;
      }
      this.held.set(id, lease);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (this.held.get(id) === lease) this.held.delete(id);
        this.releaseInStore(id, lease);
      };
    }
    return null;
  }

  /**
   * Free a slot in the store. The slots released in the same moment (a burst of answers ending together) go
   * in one command: one deleteMany after the current turn of the event loop instead of one deleteOne each.
   */
  private releaseInStore(id: string, lease: string): void {
    this.releasing.push({ _id: id, lease });
    if (this.releasing.length === 1) setImmediate(() => void this.flushReleases());
  }

  /** Send the pending releases now; resolves when they are done (a failure is logged: the leases expire). */
  private flushReleases(): Promise<void> {
    const slots = this.releasing;
    this.releasing = [];
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < slots.length; i += RELEASE_BATCH_MAX) {
      const batch = slots.slice(i, i + RELEASE_BATCH_MAX);
      const write = collection()
        .deleteMany(batch.length === 1 ? batch[0] : { $or: batch })
        .catch((err) => logger.warn({ err, slots: batch.length }, "answer slots not released; they expire"))
        .finally(() => {
          for (const slot of batch)
            if (this.unreleased.get(slot._id) === write) this.unreleased.delete(slot._id);
        });
      for (const slot of batch) this.unreleased.set(slot._id, write);
      writes.push(write);
    }
    return Promise.all(writes).then(() => undefined);
  }

  /** Slots held in the store now (all processes) for a user (tests). */
  async heldInStore(userId: string): Promise<number> {
    const prefix = `${userId}:`;
    const docs = await collection()
      .find({ exp: { $gte: new Date() } })
      .toArray();
    return docs.filter((d) => d._id.startsWith(prefix)).length;
  }

  close(): void {
    clearInterval(this.timer);
  }

  private async renew(): Promise<void> {
    if (this.held.size === 0 || mongoose.connection.readyState !== 1) return;
    try {
      await collection().updateMany(
        { _id: { $in: [...this.held.keys()] }, worker: this.worker },
        { $set: { exp: new Date(Date.now() + this.leaseMs) } },
      );
    } catch (err) {
      logger.warn({ err }, "answer slots not renewed");
    }
  }
}
