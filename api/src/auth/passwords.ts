/** Password hashing: argon2id (OWASP parameters: 19 MiB, 2 iterations). */
import { type Algorithm, hash, verify } from "@node-rs/argon2";

const ARGON2ID = 2 as Algorithm; // const enum in the typings; the value is stable

const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verified against when the e-mail is unknown, so a login takes as long for unknown as for known accounts.
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstDummy(password: string): Promise<void> {
  dummyHash ??= hashPassword("dummy-password-for-timing");
  await verifyPassword(await dummyHash, password);
}

/**
 * The fields to $set for a new password. Every way of setting one (own change, reset link, admin or CLI reset)
 * goes through here, so every one also voids the reset and verification links mailed before it: a link must
 * not outlive the password it was meant to replace.
 */
export async function newPasswordFields(password: string): Promise<{
  passwordHash: string;
  passwordResetToken: null;
  passwordResetTokenExpires: null;
  verificationToken: null;
  verificationTokenExpires: null;
}> {
  return {
    passwordHash: await hashPassword(password),
    passwordResetToken: null,
    passwordResetTokenExpires: null,
    verificationToken: null,
    verificationTokenExpires: null,
  };
}
