#!/usr/bin/env node
// The `embedded-mongo` command: runs src/cli.ts through tsx (no build step). Options: see src/cli.ts.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli.ts");
await main();
