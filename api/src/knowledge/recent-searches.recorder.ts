/**
 * The signed-in user's recent searches (recent_searches) and the `search` entries of the activity log, written
 * behind the searches that made them.
 *
 * Recording a search takes store writes; the searcher should not wait for them, and one write per search
 * (through mongoose, the driver and the store) cost more than the search itself. So searches are queued and
 * written together SEARCH_RECORD_DELAY_MS after the first unwritten one: one bulk upsert of recent searches (a
 * text searched twice in the batch counts once, at its latest time) and one insert of activity entries (each
 * with the time of its search). Batches are written one after another, in order; reading or clearing a user's
 * recent searches first writes theirs. Recording never fails the search (errors are logged). A user with
 * MAX_PENDING_SEARCHES still unwritten (a script hammering the search) is not recorded further until they are
 * written: memory stays bounded.
 */
import mongoose from "mongoose";
import { recordActivities } from "../activity/activity.service";
import { logger } from "../logger";
import type { UserIdentity } from "../users/user.model";
import { clamp } from "./knowledge.input";
import { RecentSearchModel } from "./recent-search.model";

/** Searches of one user waiting to be recorded; more are not recorded until these are written. */
export const MAX_PENDING_SEARCHES = 50;
/** Searches are recorded this long after the first unwritten one, together (one write per collection). */
export const SEARCH_RECORD_DELAY_MS = 50;
/** Recent searches kept per user. */
export const RECENT_SEARCHES_KEPT = 20;

export interface RecentSearchView {
  id: string;
  query: string;
  timestamp: Date;
}

/** A search as it is recorded: the text searched, its category filter and how many articles it found. */
export interface SearchToRecord {
  query: string;
  category: string | null;
  results: number;
}

/** A search waiting to be written to the user's recent searches and the activity log. */
interface PendingSearch extends SearchToRecord {
  userId: mongoose.Types.ObjectId;
  userKey: string;
  userName: string;
  userEmail: string;
  at: Date;
}

export class RecentSearchRecorder {
  /** searches not written yet, in order */
  private unrecorded: PendingSearch[] = [];
  /** per user id: their searches not written yet or being written */
  private readonly recordingPerUser = new Map<string, number>();
  private recordTimer: NodeJS.Timeout | null = null;
  /** per user id: searches not recorded since the last warning (one warning per batch, not one per search) */
  private readonly unrecordable = new Map<string, number>();
  /** the writes of recorded searches, one batch after another */
  private recording: Promise<void> = Promise.resolve();

  /** Queue a user's search for recording (see the module comment); returns at once. */
  record(user: UserIdentity, search: SearchToRecord): void {
    const userKey = String(user._id);
    const queued = this.recordingPerUser.get(userKey) ?? 0;
    if (queued >= MAX_PENDING_SEARCHES) {
      this.unrecordable.set(userKey, (this.unrecordable.get(userKey) ?? 0) + 1);
      return;
    }
    this.recordingPerUser.set(userKey, queued + 1);
    this.unrecorded.push({
      userId: user._id,
      userKey,
      userName: user.name,
      userEmail: user.email,
      query: search.query,
      category: search.category,
      results: search.results,
      at: new Date(),
    });
    if (!this.recordTimer) {
      this.recordTimer = setTimeout(() => void this.writeRecordedSearches(), SEARCH_RECORD_DELAY_MS);
      this.recordTimer.unref();
    }
  }

  /** Resolves when every search recorded so far has been written (tests, shutdown). */
  async searchesRecorded(): Promise<void> {
    while (this.unrecorded.length > 0 || this.recordingPerUser.size > 0) await this.writeRecordedSearches();
  }

  /** The user's last searches, newest first (at most RECENT_SEARCHES_KEPT). */
  async recentSearches(
    userId: string,
    limit: number | null = RECENT_SEARCHES_KEPT,
  ): Promise<RecentSearchView[]> {
    const n = clamp(limit, 1, RECENT_SEARCHES_KEPT, RECENT_SEARCHES_KEPT);
    if (this.recordingPerUser.has(userId)) await this.writeRecordedSearches();
    const rows = await RecentSearchModel.find({ userId: new mongoose.Types.ObjectId(userId) })
      .sort({ timestamp: -1, _id: -1 })
      .limit(n)
      .lean();
    return rows.map((r) => ({ id: String(r._id), query: r.query, timestamp: r.timestamp }));
  }

  /** Forget the user's recent searches. */
  async clearRecentSearches(userId: string): Promise<number> {
    // searches made before the clear, still waiting to be written, are cleared too
    if (this.recordingPerUser.has(userId)) await this.writeRecordedSearches();
    const res = await RecentSearchModel.deleteMany({ userId: new mongoose.Types.ObjectId(userId) });
    return res.deletedCount ?? 0;
  }

  /** Start writing every queued search now; resolves when they (and every earlier batch) are written. */
  private writeRecordedSearches(): Promise<void> {
    if (this.recordTimer) {
      clearTimeout(this.recordTimer);
      this.recordTimer = null;
    }
    for (const [userId, skipped] of this.unrecordable) {
      logger.warn({ userId, skipped }, "searches arrived faster than they could be recorded; some were not");
    }
    this.unrecordable.clear();
    const batch = this.unrecorded;
    if (batch.length === 0) return this.recording;
    this.unrecorded = [];
    this.recording = this.recording
      .then(() => this.writeSearches(batch))
      .catch((err) => logger.error({ err, searches: batch.length }, "could not record searches"))
      .finally(() => {
        for (const s of batch) {
          const n = (this.recordingPerUser.get(s.userKey) ?? 1) - 1;
          if (n <= 0) this.recordingPerUser.delete(s.userKey);
          else this.recordingPerUser.set(s.userKey, n);
        }
      });
    return this.recording;
  }

  private async writeSearches(batch: PendingSearch[]): Promise<void> {
    await Promise.all([
      this.rememberSearches(batch),
      recordActivities(
        batch.map((s) => ({
          action: "search",
          message: { key: "log.search" as const, params: { name: s.userName, query: s.query } },
          userEmail: s.userEmail,
          userId: s.userKey,
          metadata: { query: s.query, category: s.category, results: s.results },
          timestamp: s.at,
        })),
      ),
    ]);
  }

  /**
   * Keep searches in their users' recent searches (one entry per text: again = to the top), at most
   * RECENT_SEARCHES_KEPT per user.
   */
  private async rememberSearches(batch: PendingSearch[]): Promise<void> {
    const latest = new Map<string, PendingSearch>();
    for (const s of batch) {
      const key = `${s.userKey}\u0000${s.query}`;
      latest.delete(key); // keep the order of the last search of each text
      latest.set(key, s);
    }
    const searches = [...latest.values()];
    const ops = searches.map((s) => ({
      updateOne: {
        filter: { userId: s.userId, query: s.query },
        update: { $set: { timestamp: s.at } },
        upsert: true,
      },
    }));
    let upserted: Record<string, unknown> = {};
    try {
      const res = await RecentSearchModel.bulkWrite(ops, { ordered: false });
      upserted = res.upsertedIds ?? {};
    } catch (err) {
      // the same search written at the same moment by another process meets the unique index: it is kept
      // once, as wanted; the other searches of the batch are written all the same (unordered)
      const e = err as {
        writeErrors?: { code?: number }[];
        code?: number;
        result?: { upsertedIds?: Record<string, unknown> };
      };
      const errors = e.writeErrors ?? [e];
      if (!errors.every((w) => w.code === 11000)) {
        logger.error({ err, searches: ops.length }, "could not save recent searches");
      }
      upserted = e.result?.upsertedIds ?? {};
    }
    // users with a new entry may now have more than RECENT_SEARCHES_KEPT
    const grown = new Map<string, mongoose.Types.ObjectId>();
    for (const i of Object.keys(upserted)) {
      const s = searches[Number(i)];
      if (s) grown.set(s.userKey, s.userId);
    }
    for (const userId of grown.values()) {
      try {
        const old = await RecentSearchModel.find({ userId }, { _id: 1 })
          .sort({ timestamp: -1, _id: -1 })
          .skip(RECENT_SEARCHES_KEPT)
          .lean();
        if (old.length > 0) await RecentSearchModel.deleteMany({ _id: { $in: old.map((o) => o._id) } });
      } catch (err) {
        logger.error({ err, userId: String(userId) }, "could not trim recent searches");
      }
    }
  }
}
