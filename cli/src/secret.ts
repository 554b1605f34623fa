/**
 * A secret given to a command (a password, the Notion token): `-` reads it from standard input, so it stays out of
 * the process list and the shell's history (`printf %s "$TOKEN" | vidensbank notion connect --token -`). Its first
 * line counts, without the line break; bounded before it is read whole.
 */
import { CliError } from "./errors";

/** no password or token is longer (the password rule allows 128, Notion's tokens are ~50) */
export const SECRET_MAX_BYTES = 4096;

/**
 * The option's value as given, or (for `-`) the first line of `input` (standard input when not given: touched only
 * then, since opening process.stdin on a pipe keeps the process alive).
 */
export async function secretValue(
  value: string | undefined,
  input?: AsyncIterable<Buffer | string>,
): Promise<string | undefined> {
  if (value !== "-") return value;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input ?? process.stdin) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > SECRET_MAX_BYTES)
      throw new CliError(`Standardinput er for langt (højst ${SECRET_MAX_BYTES} byte)`);
    chunks.push(bytes);
    if (bytes.includes(10)) break;
  }
  const line = Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0] ?? "";
  if (!line) throw new CliError("Ingen værdi på standardinput (forventede én linje)");
  return line;
}
