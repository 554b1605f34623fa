/**
 * api test files that change module state another file would inherit in a shared module graph: vi.resetModules
 * (models would be registered twice with mongoose), vi.mock / vi.spyOn / vi.stubEnv / fake timers. Kept by grep:
 * `grep -rlE "vi\.(mock|resetModules|spyOn|stubEnv|stubGlobal|useFakeTimers)" api/src bench` (api/src/testing/isolated-tests.test.ts fails when a file uses one and is not listed). Also a file that
 * asserts a module's fresh state, and one that stops the store under this process's own mongoose connection (a
 * stalled change stream swaps mongoose's client, db/client-swap.ts: module state either way).
 */
export const API_ISOLATED = [
  "api/src/search/search.lexicon.test.ts",
  "api/src/search/search.persist-danish.test.ts",
  "api/src/rest/input-bounds.integration.test.ts",
  "api/src/rest/http-edge.integration.test.ts",
  "api/src/graphql/security.integration.test.ts",
  "api/src/graphql/errors.test.ts",
  "api/src/mail/mail-queue.test.ts",
  "api/src/notion/notion.integration.test.ts",
  "api/src/chat/chat.pace.test.ts",
  "api/src/events/listeners.test.ts",
  "api/src/knowledge/knowledge.search.test.ts",
  "api/src/chat/chat.user-document.integration.test.ts",
  // stops and restarts the store under this process's mongoose connection
  "api/src/events/resync.integration.test.ts",
  // asserts that its module has not loaded its data yet
  "bench/answers/danish-frequency.test.ts",
];
