/**
 * Bundles the API server's TypeScript (and the workspace packages it imports) into one ES module for plain
 * `node`: a start then loads a single file instead of having tsx hook and transpile-check every module it loads
 * (about half of a start's time went to module loading under tsx). npm packages stay external (node_modules).
 *
 * Every `import.meta.url` keeps meaning its own source file (paths such as DATA_DIR's default, the sample
 * content, the web build and the search index's format key are worked out from it): it becomes the source
 * file's URL relative to the bundle, so the checkout can move.
 *
 *   node api/scripts/bundle.mjs [entry.ts] [out.mjs]    (default: api/src/main.ts → api/dist/main.mjs)
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const API = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ROOT = path.resolve(API, "..");
const entry = path.resolve(process.argv[2] ?? path.join(API, "src/main.ts"));
const outfile = path.resolve(process.argv[3] ?? path.join(API, "dist/main.mjs"));

/** npm dependencies of every workspace: left to node_modules */
const external = new Set();
for (const dir of [
  ROOT,
  API,
  ...fs.readdirSync(path.join(ROOT, "packages")).map((p) => path.join(ROOT, "packages", p)),
]) {
  const file = path.join(dir, "package.json");
  if (!fs.existsSync(file)) continue;
  const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
  for (const field of ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"])
    for (const name of Object.keys(pkg[field] ?? {}))
      if (!name.startsWith("@vidensbank/")) external.add(name);
}

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

await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  external: [...external].flatMap((name) => [name, `${name}/*`]),
  plugins: [ownImportMetaUrl],
  logLevel: "warning",
  // CommonJS dependencies imported by name still need require() in an ES module bundle
  banner: {
    js: 'import { createRequire as __vbRequire } from "node:module"; const require = __vbRequire(import.meta.url);',
  },
});
