/** The commander program: only registers commands and hands parsed options to the handlers. */
import { Command, Option } from "commander";
import type { AdminCreateOptions } from "./commands/admin";
import { adminCreate } from "./commands/admin";
import { registerKnowledgeCommand } from "./commands/knowledge";
import {
  type CreateOptions,
  type DeleteOptions,
  type ListOptions,
  type ResetOptions,
  usersCreate,
  usersDelete,
  usersList,
  usersResetPassword,
} from "./commands/users";
import { type Output, type WithContext, withContext } from "./context";

export interface Handlers {
  usersList(opts: ListOptions): Promise<void>;
  usersCreate(opts: CreateOptions): Promise<void>;
  usersResetPassword(user: string, opts: ResetOptions): Promise<void>;
  usersDelete(user: string, opts: DeleteOptions): Promise<void>;
  adminCreate(opts: AdminCreateOptions): Promise<void>;
}

/** The real commands, each in its own database context. */
export function realHandlers(io: Output, run: WithContext = withContext): Handlers {
  return {
    usersList: (opts) => run(io, (ctx) => usersList(ctx, opts)),
    usersCreate: (opts) => run(io, (ctx) => usersCreate(ctx, opts)),
    usersResetPassword: (user, opts) => run(io, (ctx) => usersResetPassword(ctx, user, opts)),
    usersDelete: (user, opts) => run(io, (ctx) => usersDelete(ctx, user, opts)),
    adminCreate: (opts) => run(io, (ctx) => adminCreate(ctx, opts)),
  };
}

export function buildProgram(handlers: Handlers, io: Output): Command {
  const program = new Command("vidensbank")
    .description(
      "Vidensbank admin CLI. Uses MONGODB_URI, or the embedded store in DATA_DIR (also while the server runs).",
    )
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    .showHelpAfterError();

  const users = program.command("users").description("manage user accounts").exitOverride();

  users
    .command("list")
    .description("list users (table), newest first")
    .option("-s, --search <text>", "case-insensitive match on e-mail, name or username")
    .option("--json", "print JSON instead of a table")
    .action((opts: ListOptions) => handlers.usersList(opts));

  const userFields = (cmd: Command) =>
    cmd
      .requiredOption("-e, --email <email>", "e-mail on an allowed domain (ALLOWED_EMAIL_DOMAINS)")
      .requiredOption("-n, --name <name>", "full name (2-100 characters)")
      .requiredOption("-u, --username <username>", "username (3-50 characters)")
      .option("-p, --password <password>", "password (at least 6); generated and printed when left out");

  userFields(users.command("create").description("create a verified user"))
    .option("--admin", "give the account the admin role")
    .addOption(new Option("--unverified", "leave the e-mail unverified (the user must verify first)"))
    .action((opts: CreateOptions) => handlers.usersCreate(opts));

  users
    .command("reset-password")
    .description("set a new password (ends the user's sessions)")
    .argument("<user>", "id, e-mail or username")
    .option("-p, --password <password>", "the new password (at least 6); generated and printed when left out")
    .action((user: string, opts: ResetOptions) => handlers.usersResetPassword(user, opts));

  users
    .command("delete")
    .description("delete a user with their conversations, bookmarks, preferences and sessions")
    .argument("<user>", "id, e-mail or username")
    .option("-y, --yes", "confirm the deletion")
    .action((user: string, opts: DeleteOptions) => handlers.usersDelete(user, opts));

  const admin = program.command("admin").description("administrator accounts").exitOverride();
  userFields(admin.command("create").description("create a verified administrator")).action(
    (opts: AdminCreateOptions) => handlers.adminCreate(opts),
  );

  registerKnowledgeCommand(program, io);
  for (const cmd of [users, admin]) {
    cmd.configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });
    for (const sub of cmd.commands) {
      sub
        .exitOverride()
        .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });
    }
  }
  return program;
}
