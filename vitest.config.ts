import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Test files spend most of their time waiting (servers, sockets, timers, the browser), not computing. Vitest's
// default of cores − 1 workers is a single worker on a 2-core machine, which leaves the CPU half idle; one file
// more than there are cores keeps it busy. `npx vitest run --maxWorkers=N` overrides it.
const maxWorkers = availableParallelism() + 1;

// type-graphql and its peers must share the one graphql instance the tests import
// (graphql ships both .mjs and .js; vite would otherwise load both).
const server = {
  deps: {
    inline: ["type-graphql", "graphql-scalars", "@apollo/server", "graphql-ws", "graphql-query-complexity"],
  },
};

export default defineConfig({
  test: {
    maxWorkers,
    projects: [
      {
        // The embedded MongoDB-compatible store (packages/embedded-mongo): engine unit tests and the conformance
        // suite (which runs against a real MongoDB when MONGODB_URI is set).
        test: {
          name: "embedded-mongo",
          include: ["packages/embedded-mongo/**/*.test.ts"],
          environment: "node",
          server,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // @vidensbank/shared: the rules and the message catalogue used by web, API and CLI.
        test: { name: "shared", include: ["packages/shared/**/*.test.ts"], environment: "node" },
      },
      {
        test: {
          name: "api",
          // bench/**: checks of the benchmarks' data (e.g. the answer-quality evaluation set)
          include: ["api/src/**/*.test.ts", "bench/**/*.test.ts"],
          environment: "node",
          server,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "cli",
          include: ["cli/src/**/*.test.ts"],
          environment: "node",
          server,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Web components rendered to static HTML (react-dom/server), no browser.
        test: { name: "web-unit", include: ["web/src/**/*.test.tsx"], environment: "node" },
      },
      {
        // Browser end-to-end tests: the real server (startTestApp) + the built web app in headless Chromium.
        // Files run in parallel with each other and with the other projects: each file starts its own server on
        // an ephemeral port over its own in-memory store and temp data dir, and its own browser contexts; the
        // built web app (globalSetup) is only read.
        test: {
          name: "web-e2e",
          include: ["web/e2e/**/*.test.ts"],
          environment: "node",
          server,
          globalSetup: ["web/e2e/global-setup.ts"],
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
