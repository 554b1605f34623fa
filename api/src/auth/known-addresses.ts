/**
 * Addresses an account signed in from (known_sign_in_addresses): for KNOWN_ADDRESS_DAYS after a successful
 * login from a client address (its per-IP key, request-meta.ts) that address is known for the account, and the
 * login limits over many accounts or many addresses do not stop it (attempt-limits.ts). Only a hash of the
 * (address, account) pair is kept, with a hash of the account so that its addresses can be forgotten together: a
 * password reset (by mail link, by an admin or the CLI) forgets them all, the user's own password change all but
 * the address it came from (the account may have been taken over: the taker's addresses must not stay exempt).
 * A TTL index removes an entry when it is no longer known. Entries from before the account hash (none has it)
 * count as unknown: they could not be forgotten.
 */
import mongoose, { Schema } from "mongoose";
import { pairKey, type RequestMeta } from "./request-meta";
import { hashToken } from "./tokens";

export const KNOWN_ADDRESS_DAYS = 90;

const knownAddressSchema = new Schema(
  {
    key: { type: String, required: true, unique: true },
    /** hash of the account (its normalized e-mail): forgetAddresses */
    account: { type: String, index: true },
    expire: { type: Date, required: true },
  },
  { collection: "known_sign_in_addresses", versionKey: false },
);
knownAddressSchema.index({ expire: 1 }, { expireAfterSeconds: 0 });

const KnownAddressModel = mongoose.model("KnownSignInAddress", knownAddressSchema);

const keyOf = (email: string, meta: RequestMeta) => hashToken(pairKey(email, meta));
const accountOf = (email: string) => hashToken(`account|${email}`);

/** Remember that `email` signed in from this client address (for another KNOWN_ADDRESS_DAYS). */
export async function rememberAddress(email: string, meta: RequestMeta): Promise<void> {
  const expire = new Date(Date.now() + KNOWN_ADDRESS_DAYS * 86_400_000);
  try {
    await KnownAddressModel.updateOne(
      { key: keyOf(email, meta) },
      { $set: { expire, account: accountOf(email) } },
      { upsert: true },
    );
  } catch (e) {
    // two sign-ins at once both inserting: the other one remembered it
    if ((e as { code?: unknown }).code !== 11000) throw e;
  }
}

/** Whether `email` signed in from this client address within KNOWN_ADDRESS_DAYS. */
export async function isKnownAddress(email: string, meta: RequestMeta): Promise<boolean> {
  const found = await KnownAddressModel.exists({
    key: keyOf(email, meta),
    account: accountOf(email),
    expire: { $gt: new Date() },
  });
  return found !== null;
}

/**
 * Forget the addresses `email` signed in from (its password was reset or changed), all but `keep`'s (the address
 * the user's own change came from).
 */
export async function forgetAddresses(email: string, keep?: RequestMeta): Promise<void> {
  await KnownAddressModel.deleteMany({
    account: accountOf(email),
    ...(keep ? { key: { $ne: keyOf(email, keep) } } : {}),
  });
}
