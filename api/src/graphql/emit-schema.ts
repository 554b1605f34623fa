/** `npm run schema`: write schema.graphql from the type-graphql classes. */
import fs from "node:fs";
import { buildAppSchema, printSortedSchema, SCHEMA_FILE } from "./schema";

const sdl = printSortedSchema(await buildAppSchema());
fs.writeFileSync(SCHEMA_FILE, sdl);
process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
