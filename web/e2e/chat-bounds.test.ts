/**
 * The chat's bounds in the web app (small caps here: two messages a session, two sessions a user). A question
 * sent into a full session is refused: the app says so above the question field with a way to a new chat, and the
 * typed question stays in the field for it. One more session than the cap: the catalogue's message, naming the
 * cap, as a toast's title (not under a generic "Handlingen mislykkedes"), nothing lost.
 * Desktop, 390 px, dark and English (screenshots: support/screenshots.ts).
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../api/src/testing/app";
import { expectAccessible } from "./support/axe";
import { closeAfterEach, launchBrowser } from "./support/browser";
import { screenshot } from "./support/screenshots";
import { startServer, stopChatFile } from "./support/server";
import { type SignedInOptions, signedInChat } from "./support/signed-in";

let app: TestApp;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  app = await startServer({
    mail: "outbox",
    config: { chatLimits: { messagesPerSession: 2, sessionsPerUser: 2 } },
  });
  browser = await launchBrowser();
}, 120_000);
closeAfterEach(contexts);
afterAll(async () => {
  await stopChatFile(app, browser, contexts);
});

async function ask(page: Page, question: string) {
  await page.getByTestId("chat-input").fill(question);
  await page.getByTestId("chat-input").press("Enter");
}

const TEXTS = {
  da: {
    full: "Samtalen er blevet for lang. Start en ny samtale for at fortsætte.",
    startNew: "Start en ny samtale",
    limit: "Du har 2 samtaler, som er det højeste antal. Slet nogle gamle samtaler for at starte en ny.",
    newChat: "Ny chat",
    openSessions: "Vis samtaler",
    generic: "Handlingen mislykkedes",
  },
  en: {
    full: "The conversation has become too long. Start a new conversation to continue.",
    startNew: "Start a new conversation",
    limit:
      "You have 2 conversations, which is the most allowed. Delete some old conversations to start a new one.",
    newChat: "New chat",
    openSessions: "Show conversations",
    generic: "The action failed",
  },
};

const VARIANTS: Array<[string, SignedInOptions]> = [
  ["desktop", { width: 1280 }],
  ["phone", { width: 390 }],
  ["dark", { width: 1280, theme: "dark" }],
  ["english", { width: 1280, language: "en" }],
];

describe("web: the chat's bounds", () => {
  it.each(VARIANTS)(
    "should offer a new chat for a full session, keeping the question (%s)",
    async (name, opts) => {
      const text = TEXTS[opts.language ?? "da"];
      const { page } = await signedInChat(app, browser, contexts, opts);
      await ask(page, "Hvem attesterer udlæg?");
      await page
        .locator('[data-testid="assistant-message"][data-status="complete"]')
        .waitFor({ timeout: 15_000 });

      // the session holds its two messages: the next question is refused, and stays in the field
      const question = "Og hvem godkender rejser?";
      await ask(page, question);
      const full = page.getByTestId("session-full");
      await full.getByText(text.full).waitFor({ timeout: 15_000 });
      expect(await page.getByTestId("chat-input").inputValue()).toBe(question);
      expect(await page.getByTestId("user-message").count()).toBe(1);
      await screenshot(page, `chat-session-full-${name}`);
      await expectAccessible(page, `a full session (${name})`);

      // a new chat takes it on: the question is still there to send
      await full.getByRole("button", { name: text.startNew }).click();
      await full.waitFor({ state: "detached", timeout: 15_000 });
      expect(await page.getByTestId("chat-input").inputValue()).toBe(question);
      await page.getByTestId("chat-input").press("Enter");
      await page.getByTestId("user-message").filter({ hasText: question }).waitFor({ timeout: 15_000 });
      await page
        .locator('[data-testid="assistant-message"][data-status="complete"]')
        .waitFor({ timeout: 15_000 });

      // two sessions is the cap here: a third is refused with the catalogue's message
      if ((opts.width ?? 1280) < 900) await page.getByRole("button", { name: text.openSessions }).click();
      await page.getByRole("button", { name: text.newChat, exact: true }).click();
      const toast = page.getByTestId("toast").filter({ hasText: text.limit });
      await toast.waitFor({ timeout: 15_000 });
      // the limit's own text is the toast's title, not a generic "the action failed" over it
      expect(await toast.locator(".MuiAlertTitle-root").innerText()).toBe(text.limit);
      expect(await toast.innerText()).not.toContain(text.generic);
      await expect.poll(() => page.getByTestId("user-message").count(), { timeout: 15_000 }).toBe(1);
      await screenshot(page, `chat-session-limit-${name}`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(opts.width ?? 1280);
    },
  );
});
