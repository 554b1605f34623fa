/** `vidensbank users ...`: list, create, reset-password, delete, through the API's services. */
import { randomBytes } from "node:crypto";
import type { AdminUserView } from "@vidensbank/api/cli";
import { type Command, Option } from "commander";
import type { CommandContext } from "../command";
import type { CliContext } from "../context";
import { CliError, EXIT } from "../errors";
import { secretValue } from "../secret";

export interface ListOptions {
  search?: string;
  json?: boolean;
}

export interface CreateOptions {
  email: string;
  name: string;
  username: string;
  password?: string;
  admin?: boolean;
  unverified?: boolean;
}

export interface ResetOptions {
  password?: string;
}

export interface DeleteOptions {
  yes?: boolean;
}

function generatedPassword(): string {
  return randomBytes(12).toString("base64url");
}

function formatDate(d: Date | null): string {
  return d ? d.toISOString().slice(0, 16).replace("T", " ") : "-";
}

/** A plain text table: header, rule, rows; columns padded to the widest cell. */
export function renderTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

export function usersTable(users: AdminUserView[]): string {
  return renderTable(
    [
      "ID",
      "EMAIL",
      "BRUGERNAVN",
      "NAVN",
      "ROLLE",
      "BEKRÆFTET",
      "OPRETTET",
      "SENEST LOGGET IND",
      "SAMTALER",
      "BOGMÆRKER",
    ],
    users.map((u) => [
      u.id,
      u.email,
      u.username,
      u.name,
      u.role,
      u.verified ? "ja" : "nej",
      formatDate(u.createdAt),
      formatDate(u.lastLogin),
      String(u.chatSessionsCount),
      String(u.bookmarksCount),
    ]),
  );
}

/** Find a user by id, e-mail or username. */
async function resolveUser(ctx: CliContext, ref: string) {
  const users = ctx.services.users;
  return /^[0-9a-f]{24}$/i.test(ref) ? users.getUser(ref) : users.findByLogin(ref);
}

export async function usersList(ctx: CliContext, opts: ListOptions): Promise<void> {
  const users = await ctx.services.users.listUsers(await ctx.actor(), opts.search);
  if (opts.json) {
    ctx.io.out(JSON.stringify(users, null, 2));
    return;
  }
  ctx.io.out(users.length === 0 ? "Ingen brugere fundet" : usersTable(users));
  ctx.io.out(`${users.length} brugere`);
}

export async function usersCreate(ctx: CliContext, opts: CreateOptions): Promise<void> {
  const given = await secretValue(opts.password, ctx.io.input);
  const actor = await ctx.actor();
  const password = given ?? generatedPassword();
  const user = await ctx.services.users.createUser(
    actor,
    {
      email: opts.email,
      name: opts.name,
      username: opts.username,
      password,
      role: opts.admin ? "admin" : "user",
      verified: !opts.unverified,
    },
    { via: "cli" },
  );
  ctx.io.out(`Bruger oprettet: ${user.email} (${user.username}, ${user.role})`);
  if (given === undefined) ctx.io.out(`Adgangskode: ${password}`);
}

export async function usersResetPassword(ctx: CliContext, ref: string, opts: ResetOptions): Promise<void> {
  const given = await secretValue(opts.password, ctx.io.input);
  const user = await resolveUser(ctx, ref);
  const password = given ?? generatedPassword();
  await ctx.services.users.adminResetPassword(await ctx.actor(), String(user._id), password);
  ctx.io.out(`Adgangskode ændret for ${user.email}; brugerens sessioner er afsluttet.`);
  if (given === undefined) ctx.io.out(`Ny adgangskode: ${password}`);
}

export async function usersDelete(ctx: CliContext, ref: string, opts: DeleteOptions): Promise<void> {
  if (!opts.yes) {
    throw new CliError(
      "Sletning fjerner brugerens samtaler, bogmærker, præferencer og konto. Tilføj --yes for at bekræfte.",
      EXIT.usage,
    );
  }
  const user = await resolveUser(ctx, ref);
  await ctx.services.users.deleteUser(await ctx.actor(), String(user._id));
  ctx.io.out(`Bruger slettet: ${user.email}`);
}

/** The options of `users create` and `admin create`. */
export function userFields(cmd: Command): Command {
  return cmd
    .requiredOption("-e, --email <email>", "e-mail on an allowed domain (ALLOWED_EMAIL_DOMAINS)")
    .requiredOption("-n, --name <name>", "full name (2-100 characters)")
    .requiredOption("-u, --username <username>", "username (3-50 characters)")
    .option(
      "-p, --password <password>",
      "password (at least 6; - reads it from standard input); generated and printed when left out",
    );
}

export function register(program: Command, { invoke }: CommandContext): void {
  const users = program.command("users").description("manage user accounts");

  users
    .command("list")
    .description("list users (table), newest first")
    .option("-s, --search <text>", "case-insensitive match on e-mail, name or username")
    .option("--json", "print JSON instead of a table")
    .action((opts: ListOptions) => invoke("usersList", usersList, opts));

  userFields(users.command("create").description("create a verified user"))
    .option("--admin", "give the account the admin role")
    .addOption(new Option("--unverified", "leave the e-mail unverified (the user must verify first)"))
    .action((opts: CreateOptions) => invoke("usersCreate", usersCreate, opts));

  users
    .command("reset-password")
    .description("set a new password (ends the user's sessions)")
    .argument("<user>", "id, e-mail or username")
    .option(
      "-p, --password <password>",
      "the new password (at least 6; - reads it from standard input); generated and printed when left out",
    )
    .action((user: string, opts: ResetOptions) =>
      invoke("usersResetPassword", usersResetPassword, user, opts),
    );

  users
    .command("delete")
    .description("delete a user with their conversations, bookmarks, preferences and sessions")
    .argument("<user>", "id, e-mail or username")
    .option("-y, --yes", "confirm the deletion")
    .action((user: string, opts: DeleteOptions) => invoke("usersDelete", usersDelete, user, opts));
}
