#!/usr/bin/env node
// The `vidensbank` admin CLI: runs src/index.ts through tsx (no build step).
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

register({ tsconfig: fileURLToPath(new URL("../../tsconfig.json", import.meta.url)) });
const { main } = await import("../src/index.ts");
await main();
