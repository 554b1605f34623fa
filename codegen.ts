import type { CodegenConfig } from "@graphql-codegen/cli";

/**
 * Typed documents for the web client, generated from the committed schema file (never a live server).
 * Run from the repository root: `npm run codegen -w web` (the script changes into the root first).
 */
const config: CodegenConfig = {
  schema: "schema.graphql",
  documents: ["web/src/**/*.{ts,tsx}", "!web/src/gql/**/*"],
  ignoreNoDocuments: true,
  generates: {
    "web/src/gql/": {
      preset: "client",
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        defaultScalarType: "unknown",
        scalars: { DateTimeISO: "string", JSONObject: "Record<string, unknown>" },
      },
    },
  },
};

export default config;
