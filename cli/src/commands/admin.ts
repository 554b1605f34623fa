/** `vidensbank admin create`: an administrator account (verified, role admin), by the same rules. */
import type { Command } from "commander";
import type { CommandContext } from "../command";
import type { CliContext } from "../context";
import { type CreateOptions, userFields, usersCreate } from "./users";

export type AdminCreateOptions = Omit<CreateOptions, "admin" | "unverified">;

export async function adminCreate(ctx: CliContext, opts: AdminCreateOptions): Promise<void> {
  await usersCreate(ctx, { ...opts, admin: true, unverified: false });
}

export function register(program: Command, { invoke }: CommandContext): void {
  const admin = program.command("admin").description("administrator accounts");
  userFields(admin.command("create").description("create a verified administrator")).action(
    (opts: AdminCreateOptions) => invoke("adminCreate", adminCreate, opts),
  );
}
