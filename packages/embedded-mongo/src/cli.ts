/**
 * `embedded-mongo --port N [--dbpath DIR | --memory] [--host H] [--fsync]` (the package's bin; in the repo
 * `npm run db -- ...`): run the embedded store on its own. The first line on stdout is the mongodb:// URI with
 * the login (scripts read it; it is printed once); logs go to stderr and show the URI with its password as ***.
 *
 * The login: EMBEDDED_MONGO_USER (default vidensbank) and EMBEDDED_MONGO_PASSWORD (default: random per start).
 */
import { DEFAULT_DBPATH, startEmbeddedStore } from "./index";
import { redactUri } from "./uri";
import type { StoreLogger } from "./wire/context";

export interface DbCliOptions {
  host: string;
  port: number;
  dbpath?: string;
  memory: boolean;
  /** fsync the log before acknowledging each write */
  fsync: boolean;
}

const USAGE = "usage: embedded-mongo [--port N] [--dbpath DIR | --memory] [--host HOST] [--fsync]";

/** Parse the command line; throws an Error with a one-line message on bad input. */
export function parseDbArgs(argv: string[]): DbCliOptions {
  const options: DbCliOptions = { host: "127.0.0.1", port: 27017, memory: false, fsync: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=") ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "") throw new Error(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case "--port": {
        const raw = value();
        const port = Number(raw);
        if (!Number.isInteger(port) || port < 0 || port > 65535)
          throw new Error(`--port must be 0-65535, got '${raw}'`);
        options.port = port;
        break;
      }
      case "--dbpath":
        options.dbpath = value();
        break;
      case "--memory":
        options.memory = true;
        break;
      case "--host":
        options.host = value();
        break;
      case "--fsync":
        options.fsync = true;
        break;
      case "--help":
      case "-h":
        throw new Error(USAGE);
      default:
        throw new Error(`unknown option '${arg}'\n${USAGE}`);
    }
  }
  if (options.memory && options.dbpath) throw new Error("use either --dbpath or --memory, not both");
  if (options.memory && options.fsync) throw new Error("--fsync needs a data directory, not --memory");
  if (!options.memory && !options.dbpath) options.dbpath = DEFAULT_DBPATH;
  return options;
}

const stderrLogger: StoreLogger = {
  info: (msg) => process.stderr.write(`${msg}\n`),
  warn: (msg) => process.stderr.write(`warning: ${msg}\n`),
  error: (msg, err) =>
    process.stderr.write(`error: ${msg}${err instanceof Error ? `: ${err.message}` : ""}\n`),
};

/** Run the store until SIGINT/SIGTERM (bin/embedded-mongo.js). Exits 2 on bad arguments, 1 when it cannot start. */
export async function main(): Promise<void> {
  // a script may read the URI line and close its end of the pipe: the store keeps running without an audience
  process.stdout.on("error", () => {});
  process.stderr.on("error", () => {});
  let options: DbCliOptions;
  try {
    options = parseDbArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(2);
  }
  let store: Awaited<ReturnType<typeof startEmbeddedStore>>;
  try {
    store = await startEmbeddedStore({
      ...options,
      logger: stderrLogger,
      credentials: {
        user: process.env.EMBEDDED_MONGO_USER || undefined,
        password: process.env.EMBEDDED_MONGO_PASSWORD || undefined,
      },
    });
  } catch (err) {
    process.stderr.write(`Cannot start the embedded store: ${(err as Error).message}\n`);
    process.exit(1);
  }
  process.stdout.write(`${store.uri}\n`);
  process.stderr.write(
    `embedded store listening on ${redactUri(store.uri)} (${options.memory ? "in memory" : `data in ${options.dbpath}${options.fsync ? ", fsync on every write" : ""}`})\n`,
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`${signal}: shutting down the embedded store\n`);
    store.close().then(
      () => process.exit(0),
      (err) => {
        process.stderr.write(`error while shutting down: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}
