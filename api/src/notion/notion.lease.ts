/**
 * One sync at a time across processes (servers, the CLI): a lease document in the store. acquire() takes it
 * when free or expired (an atomic upsert; a held lease makes the insert fail on its _id); the holder renews it
 * every third of its duration while working and releases it at the end. A crashed holder's lease expires.
 */
import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { logger } from "../logger";

export const LEASE_MS = 60_000;

interface LeaseDoc {
  _id: string;
  owner: string;
  expiresAt: Date;
}

const leases = () => mongoose.connection.collection<LeaseDoc>("notion_leases");

export interface Lease {
  release(): Promise<void>;
}

/** The lease `name`, or null when another holder has it. */
export async function acquireLease(name: string, ms = LEASE_MS): Promise<Lease | null> {
  const owner = randomUUID();
  const now = new Date();
  try {
    const res = await leases().findOneAndUpdate(
      { _id: name, $or: [{ expiresAt: { $lt: now } }, { owner }] },
      { $set: { owner, expiresAt: new Date(now.getTime() + ms) } },
      { upsert: true, returnDocument: "after" },
    );
    if (!res || res.owner !== owner) return null;
  } catch (err) {
    if ((err as { code?: number }).code === 11000) return null;
    throw err;
  }
  const timer = setInterval(() => {
    leases()
      .updateOne({ _id: name, owner }, { $set: { expiresAt: new Date(Date.now() + ms) } })
      .catch((err) => logger.warn({ err }, "could not renew the Notion sync lease"));
  }, ms / 3);
  timer.unref();
  return {
    async release() {
      clearInterval(timer);
      await leases().deleteOne({ _id: name, owner });
    },
  };
}
