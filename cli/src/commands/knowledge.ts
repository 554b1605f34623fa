/**
 * `vidensbank knowledge import DIR`: import or update a folder of Markdown articles (front matter: title,
 * category, subcategory, tags), keyed by each file's path relative to DIR. Running it again writes nothing for
 * unchanged files. A running server picks the changes up within a few seconds (it watches the store).
 */
import fs from "node:fs";
import path from "node:path";
import { ContentError, type ImportResult } from "@vidensbank/api/cli";
import type { Command } from "commander";
import type { CommandContext } from "../command";
import type { CliContext } from "../context";
import { CliError, EXIT } from "../errors";

export interface KnowledgeImportOptions {
  json?: boolean;
}

/** The summary line printed after an import. */
export function importSummary(dir: string, r: ImportResult): string {
  return `Importeret fra ${dir}: ${r.total} artikler (${r.created} oprettet, ${r.updated} opdateret, ${r.unchanged} uændret)`;
}

export async function knowledgeImport(
  ctx: CliContext,
  dir: string,
  opts: KnowledgeImportOptions,
): Promise<ImportResult> {
  const abs = path.resolve(dir);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isDirectory()) {
    throw new CliError(`Mappen findes ikke: ${abs}`, EXIT.notFound);
  }
  let result: ImportResult;
  try {
    result = await ctx.services.knowledge.importDirectory(abs);
  } catch (err) {
    // nothing was written: every file is read and checked before the first write
    if (err instanceof ContentError)
      throw new CliError(`Ugyldig artikel, intet importeret: ${err.message}`, EXIT.usage);
    throw err;
  }
  ctx.io.out(opts.json ? JSON.stringify({ dir: abs, ...result }) : importSummary(abs, result));
  return result;
}

export function register(program: Command, { invoke }: CommandContext): void {
  const knowledge = program.command("knowledge").description("knowledge articles");
  knowledge
    .command("import")
    .description("import or update the Markdown articles of a folder (idempotent by file path)")
    .argument("<dir>", "folder with *.md files (searched recursively)")
    .option("--json", "print the counts as JSON")
    .action((dir: string, opts: KnowledgeImportOptions) =>
      invoke("knowledgeImport", knowledgeImport, dir, opts),
    );
}
