/** A new verified staff user with a browser context that starts signed in as it (token in localStorage). */
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { TestApp } from "../../../api/src/testing/app";
import { createVerifiedUser, gql } from "../../../api/src/testing/client";
import { BODY_BACKGROUND, newContext } from "./browser";

export interface SignedInOptions {
  width?: number;
  theme?: "light" | "dark";
  language?: "da" | "en";
  /** an existing user's token (a file's seeded user, opened in several modes) instead of a new user */
  token?: string;
}

/**
 * The user's preferences (theme, language) are saved on the server first, so the app starts in them (an existing
 * user's always, so an earlier mode does not carry over); the page is not opened yet (the caller may route
 * requests first). The caller closes the context.
 */
export async function signedInPage(
  app: TestApp,
  browser: Browser,
  opts: SignedInOptions = {},
): Promise<{ page: Page; context: BrowserContext; token: string }> {
  const token = opts.token ?? (await createVerifiedUser(app)).token;
  if (opts.theme || opts.language || opts.token) {
    await gql(
      app,
      "mutation($i: PreferencesInput!) { updatePreferences(input: $i) { theme } }",
      { i: { theme: opts.theme ?? "light", language: opts.language ?? "da" } },
      token,
    );
  }
  const context = await newContext(browser, {
    baseURL: app.url,
    width: opts.width,
    height: opts.width && opts.width < 600 ? 844 : 860,
    theme: opts.theme,
    language: opts.language,
  });
  await context.addInitScript((t: string) => localStorage.setItem("auth_token", t), token);
  return { page: await context.newPage(), context, token };
}

/**
 * signedInPage on the chat (`/`), ready to type: the context goes into `contexts` for the caller's afterAll;
 * `prepare` runs before the page opens (e.g. routing its websocket).
 */
export async function signedInChat(
  app: TestApp,
  browser: Browser,
  contexts: BrowserContext[],
  opts: SignedInOptions = {},
  prepare?: (page: Page) => Promise<void>,
): Promise<{ page: Page; token: string }> {
  const { page, context, token } = await signedInPage(app, browser, opts);
  contexts.push(context);
  await prepare?.(page);
  await page.goto("/");
  await page.getByTestId("chat-input").waitFor();
  return { page, token };
}

const subscribed = new WeakMap<Page, Promise<void>>();

/**
 * Watches `page`, before it opens, for its subscription to its user's preferences (sent on its websocket once the
 * app knows its user): savePreferences waits for it.
 */
export function watchPreferences(page: Page): void {
  subscribed.set(
    page,
    new Promise<void>((resolve) => {
      page.on("websocket", (ws) =>
        ws.on("framesent", (frame) => {
          if (String(frame.payload).includes("PreferencesChanged")) resolve();
        }),
      );
    }),
  );
}

/**
 * Saves the user's theme and language on the server and waits until the open `page` (watched: watchPreferences)
 * shows them: the server pushes them to the page over graphql-ws, as when they are saved in another tab, and the
 * app switches without a reload. A mode for a page already open, instead of a new context and a load.
 */
export async function savePreferences(
  app: TestApp,
  token: string,
  page: Page,
  prefs: { theme: "light" | "dark"; language: "da" | "en" },
): Promise<void> {
  const watched = subscribed.get(page);
  if (!watched)
    throw new Error("savePreferences: the page was not watched (watchPreferences before it opened)");
  await watched;
  const saved = await gql(
    app,
    "mutation($i: PreferencesInput!) { updatePreferences(input: $i) { theme } }",
    { i: prefs },
    token,
  );
  if (saved.errors) throw new Error(`updatePreferences: ${JSON.stringify(saved.errors)}`);
  await page.waitForFunction(
    ([bg, lang]) =>
      getComputedStyle(document.body).backgroundColor === bg && document.documentElement.lang === lang,
    [BODY_BACKGROUND[prefs.theme], prefs.language] as const,
  );
}

/**
 * The chat's open `page` (watched: watchPreferences) as a phone in dark English: narrowed to 390 px, the theme and
 * language saved and pushed (savePreferences), then a new chat from the sessions drawer (its "New chat" button, not
 * a session of that name).
 */
export async function toPhoneDarkEnglishNewChat(app: TestApp, token: string, page: Page): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  await savePreferences(app, token, page, { theme: "dark", language: "en" });
  await page.getByTestId("open-sessions").click();
  await page
    .getByRole("button", { name: "New chat", exact: true })
    .and(page.locator(':not([data-testid="session-item"])'))
    .click();
  await page.getByText("What would you like to know?").waitFor();
}
