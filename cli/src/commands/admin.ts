/** `vidensbank admin create`: an administrator account (verified, role admin), by the same rules. */
import type { CliContext } from "../context";
import { type CreateOptions, usersCreate } from "./users";

export type AdminCreateOptions = Omit<CreateOptions, "admin" | "unverified">;

export async function adminCreate(ctx: CliContext, opts: AdminCreateOptions): Promise<void> {
  await usersCreate(ctx, { ...opts, admin: true, unverified: false });
}
