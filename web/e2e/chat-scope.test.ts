/**
 * Scope a question (issue 17) end to end: the real server without a language model (retrieval-only: the answers
 * are quoted passages, so what is cited is exactly what retrieval found) and the production web build in headless
 * Chromium. One signed-in page walks through category, `#article`, removing the scope and "Spørg om denne
 * artikel"; a second (390 px, dark, English) checks the narrow screen. Screenshots go to
 * artifacts/screenshots/chat-scope-*.png.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleArticleId } from "../../api/src/chat/chat.test-helpers";
import type { TestApp } from "../../api/src/testing/app";
import { expectAccessible } from "./support/axe";
import { closeAfterEach, launchBrowser } from "./support/browser";
import { holdResponse } from "./support/hold";
import { screenshot } from "./support/screenshots";
import { startServer, stopChatFile } from "./support/server";
import { type SignedInOptions, signedInChat } from "./support/signed-in";
import { goInApp } from "./support/tour";

let app: TestApp;
let browser: Browser;
let udlaeg: string;
let attestation: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  app = await startServer();
  udlaeg = await sampleArticleId(app, "oekonomi/udlaeg-og-refusion.md");
  attestation = await sampleArticleId(app, "oekonomi/attestation-og-godkendelse-af-betalinger.md");
  browser = await launchBrowser();
}, 120_000);
closeAfterEach(contexts);
afterAll(async () => {
  await stopChatFile(app, browser, contexts);
});

async function signedIn(opts: SignedInOptions = {}) {
  return (await signedInChat(app, browser, contexts, opts)).page;
}

const lastAnswer = (page: Page) => page.getByTestId("assistant-message").last();

/** Ask and wait for the complete answer; returns the ids of the articles it cites. */
async function ask(page: Page, question: string): Promise<string[]> {
  const before = await page.getByTestId("assistant-message").count();
  await page.getByTestId("chat-input").fill(question);
  await page.getByTestId("chat-input").press("Enter");
  await page.locator('[data-testid="assistant-message"][data-status="complete"]').nth(before).waitFor();
  // the answer is rendered with its sources or as "not covered" (under load, a moment after its status)
  await lastAnswer(page).locator('a[data-citation], [data-testid="answer-not-covered"]').first().waitFor();
  const hrefs = await lastAnswer(page)
    .locator("a[data-citation]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("href") ?? ""));
  return hrefs.map((h) => decodeURIComponent(new URL(h, "http://x").searchParams.get("article") ?? ""));
}

describe("web: scope a question", () => {
  it("should scope by category and by #article, remove the scope by keyboard, and ask about one article", async () => {
    const page = await signedIn();

    // a category from the scope menu, before the chat has a session: sent with the first question
    await page.getByTestId("chat-scope-button").click();
    await page.getByRole("menuitem", { name: "Økonomi" }).click();
    await page.getByTestId("chat-scope-chip").filter({ hasText: "Kategori: Økonomi" }).waitFor();
    const outside = await ask(page, "Hvad gør jeg ved et databrud?");
    expect(outside).toEqual([]);
    await lastAnswer(page).getByTestId("answer-not-covered").waitFor();
    await lastAnswer(page)
      .getByTestId("answer-scope")
      .filter({ hasText: "Søgt i: Kategori: Økonomi" })
      .waitFor();
    // said once, by the badge: the answer's own last line (for the CLI and copied text) is not shown again
    expect(
      await lastAnswer(page)
        .getByText(/Søgt i:/)
        .count(),
    ).toBe(1);
    await expectAccessible(page, "chat scoped to a category");

    // `#` in the question opens the article picker; Enter takes the first hit, the `#` is not kept
    await page.getByTestId("chat-input").fill("Hvem attesterer ");
    await page.getByTestId("chat-input").press("End");
    await page.getByTestId("chat-input").pressSequentially("#");
    await page.getByTestId("chat-article-picker").waitFor();
    await page.getByTestId("chat-article-search").pressSequentially("udlæg refusion");
    await page.getByTestId("chat-article-option").first().waitFor();
    await expectAccessible(page, "article picker");
    await page.getByTestId("chat-article-search").press("Enter");
    await page.getByTestId("chat-article-picker").waitFor({ state: "hidden" });
    await page
      .getByTestId("chat-scope-chip")
      .filter({ hasText: "Udlæg og refusion af egne udgifter" })
      .waitFor();
    expect(await page.getByTestId("chat-input").inputValue()).toBe("Hvem attesterer ");
    await page.getByTestId("chat-input").pressSequentially("udlæg?");
    const cited = await ask(page, await page.getByTestId("chat-input").inputValue());
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.every((id) => id === udlaeg)).toBe(true);
    await screenshot(page, "chat-scope-desktop");

    // the chip is removed with the keyboard: the scope is all articles again (kept on the session)
    await page.getByTestId("chat-scope-chip").first().focus();
    await page.keyboard.press("Delete");
    await page.getByTestId("chat-scope-chip").waitFor({ state: "detached" });
    await page.getByTestId("chat-scope-button").filter({ hasText: "Alle artikler" }).waitFor();

    // "Spørg om denne artikel" on the article view (reached in the app: its links) opens a new chat scoped to it
    await goInApp(page, `/knowledge?article=${attestation}`, "[data-testid=article-content]");
    await page.getByRole("link", { name: "Spørg om denne artikel" }).click();
    await page
      .getByTestId("chat-scope-chip")
      .filter({ hasText: "Attestation og godkendelse af betalinger" })
      .waitFor({ timeout: 20_000 })
      .catch(async (err) => {
        await screenshot(page, "chat-scope-ask-article-failed");
        throw err;
      });
    expect(await page.getByTestId("user-message").count()).toBe(0);
    expect(new URL(page.url()).search).toBe("");
    const fromArticle = await ask(page, "Hvem attesterer udlæg?");
    expect(fromArticle.length).toBeGreaterThan(0);
    expect(fromArticle.every((id) => id === attestation)).toBe(true);
    await expectAccessible(page, "chat asked about one article");
  }, 90_000);

  it("should keep the new chat of 'Spørg om denne artikel' when the session list answers after it was created", async () => {
    const page = await signedIn();
    await ask(page, "Hvem attesterer udlæg?"); // a session to fall back to
    await page.goto(`/knowledge?article=${attestation}`);
    // the chat's first read of the session list answers only after the new session exists (a busy server): the
    // read after the creation is folded into it by the client, so it answers without the new session
    const release = await holdResponse(page, "ChatSessions");
    const created = page.waitForResponse(
      (r) =>
        r.url().endsWith("/graphql") && r.request().postDataJSON()?.operationName === "CreateChatSession",
    );
    await page.getByRole("link", { name: "Spørg om denne artikel" }).click();
    await created;
    await release();
    await page
      .getByTestId("chat-scope-chip")
      .filter({ hasText: "Attestation og godkendelse af betalinger" })
      .waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("user-message").count()).toBe(0);
  }, 90_000);

  it("should work at 390 px in dark mode in English", async () => {
    const page = await signedIn({ width: 390, theme: "dark", language: "en" });
    await page.getByTestId("chat-scope-button").filter({ hasText: "All articles" }).click();
    await page.getByRole("menuitem", { name: "My bookmarks" }).waitFor();
    await screenshot(page, "chat-scope-390-dark-en-menu");
    await expectAccessible(page, "scope menu, 390 px dark");
    await page.getByRole("menuitem", { name: "Choose articles…" }).click();
    await page.getByTestId("chat-article-search").pressSequentially("attestation");
    await page.getByTestId("chat-article-option").first().click();
    await page.getByTestId("chat-article-option").nth(1).click();
    await page.getByRole("button", { name: "Done" }).click();
    expect(await page.getByTestId("chat-scope-chip").count()).toBe(2);
    await ask(page, "Who approves payments? attestation");
    await lastAnswer(page)
      .getByTestId("answer-scope")
      .filter({ hasText: "Searched in: 2 articles" })
      .waitFor();
    // nothing wider than the screen
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page, "chat scoped, 390 px dark");
    await screenshot(page, "chat-scope-390-dark-en");
  }, 60_000);
});
