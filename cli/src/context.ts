/**
 * What a command runs with: the validated config, the database (MONGODB_URI, the running server's embedded
 * store, or the embedded store in DATA_DIR started here) and the same services the server uses. The CLI reaches
 * the API only through `@vidensbank/api/cli`.
 */
import {
  type AppConfig,
  createServices,
  type Database,
  loadConfig,
  openDatabase,
  type Services,
  type UserDoc,
} from "@vidensbank/api/cli";

export interface Output {
  out(line: string): void;
  err(line: string): void;
  /** where a secret given as `-` is read (secret.ts); standard input when not set */
  input?: AsyncIterable<Buffer | string>;
}

export interface CliContext {
  config: AppConfig;
  services: Services;
  io: Output;
  /** the built-in admin: CLI admin operations act as this user (created like at server start when missing) */
  actor(): Promise<UserDoc>;
}

export type WithContext = <T>(io: Output, fn: (ctx: CliContext) => Promise<T>) => Promise<T>;

/** Open config, database and services for one command; always closes what it opened. */
export const withContext: WithContext = async (io, fn) => {
  const config = loadConfig();
  const db: Database = await openDatabase(config, { role: "client" });
  const services = createServices(config);
  try {
    return await fn({
      config,
      services,
      io,
      async actor() {
        const { user, generatedPassword } = await services.users.builtinAdmin();
        if (generatedPassword) {
          io.err(`Indbygget admin oprettet: ${user.email} (adgangskode: ${generatedPassword})`);
        }
        return user;
      },
    });
  } finally {
    await services.close();
    await db.close();
  }
};
