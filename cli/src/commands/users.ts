/** `vidensbank users ...`: list, create, reset-password, delete, through the API's services. */
import { randomBytes } from "node:crypto";
import { recordActivity } from "@vidensbank/api/activity/activity.service";
import type { AdminUserView } from "@vidensbank/api/users/users.service";
import type { CliContext } from "../context";
import { CliError, EXIT } from "../errors";

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
  const actor = await ctx.actor();
  const password = opts.password ?? generatedPassword();
  const user = await ctx.services.auth.createAccount(
    { email: opts.email, name: opts.name, username: opts.username, password },
    { role: opts.admin ? "admin" : "user", verified: !opts.unverified },
  );
  await recordActivity({
    action: "admin_create_user",
    description: `Administrator oprettede brugeren ${user.email} (CLI)`,
    userEmail: actor.email,
    userId: String(actor._id),
    metadata: { createdUserId: String(user._id), role: user.role, via: "cli" },
  });
  ctx.io.out(`Bruger oprettet: ${user.email} (${user.username}, ${user.role})`);
  if (!opts.password) ctx.io.out(`Adgangskode: ${password}`);
}

export async function usersResetPassword(ctx: CliContext, ref: string, opts: ResetOptions): Promise<void> {
  const user = await resolveUser(ctx, ref);
  const password = opts.password ?? generatedPassword();
  await ctx.services.users.adminResetPassword(await ctx.actor(), String(user._id), password);
  ctx.io.out(`Adgangskode ændret for ${user.email}; brugerens sessioner er afsluttet.`);
  if (!opts.password) ctx.io.out(`Ny adgangskode: ${password}`);
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
