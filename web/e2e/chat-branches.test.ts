/**
 * Chat branches end to end: edit a question and switch between the versions, regenerate an answer, ask a
 * follow-up by its chip; axe on the result (desktop, and 390 px dark in English). The real server answers through
 * the local fake OpenAI server, the production web build runs in headless Chromium.
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../api/src/testing/app";
import { type FakeChatRequest, type FakeOpenAI, startFakeOpenAI } from "../../api/src/testing/fake-openai";
import { expectAccessible } from "./support/axe";
import { closeAfterEach, launchBrowser } from "./support/browser";
import { holdResponse } from "./support/hold";
import { recordInPage } from "./support/record";
import { screenshot } from "./support/screenshots";
import { startServer, stopChatFile } from "./support/server";
import {
  type SignedInOptions,
  signedInChat,
  toPhoneDarkEnglishNewChat,
  watchPreferences,
} from "./support/signed-in";

/** screenshots of this feature also go here (for review) */
const SHOTS = process.env.CHAT_BRANCHES_SHOTS ?? "";

/** The model answers with the question it got, citing source 1. */
function scripted(req: FakeChatRequest): string {
  if (!req.stream) return "Klager";
  const last = req.messages.at(-1)?.content;
  return `Svar på: ${typeof last === "string" ? last : ""} [1]`;
}

let fake: FakeOpenAI;
let app: TestApp;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI({ reply: scripted, firstTokenDelayMs: 150, tokenDelayMs: 0 });
  app = await startServer({
    mail: "outbox",
    config: {
      openaiBaseUrl: fake.baseURL,
      openaiApiKey: "sk-test",
      openaiModel: "fake-model",
      chatLimits: { llmTimeoutMs: 20_000, llmFirstTokenTimeoutMs: 5_000, llmMaxRetries: 0, heartbeatMs: 200 },
    },
  });
  browser = await launchBrowser();
}, 120_000);
closeAfterEach(contexts);
afterAll(async () => {
  await stopChatFile(app, browser, contexts);
  await fake?.close();
});

async function signedIn(opts: SignedInOptions = {}) {
  return (await signedInChat(app, browser, contexts, opts)).page;
}

async function shot(page: Page, name: string) {
  await screenshot(page, name);
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true, animations: "disabled" });
}

const answers = (page: Page) => page.getByTestId("assistant-message");
const questions = (page: Page) => page.getByTestId("user-message");
const complete = (page: Page, text: string) =>
  page.locator('[data-testid="assistant-message"][data-status="complete"]', { hasText: text }).waitFor();

/** Records in the page every distinct set of follow-up chips it shows, however briefly. */
function recordChips(page: Page) {
  return recordInPage(page, () => {
    const nav = document.querySelector('[data-testid="follow-ups"]');
    return nav
      ? [...nav.querySelectorAll('[role="button"]')].map((b) => (b.textContent ?? "").trim())
      : undefined;
  });
}

describe("web: chat branches", () => {
  it("should edit a question and switch versions, regenerate, and ask a follow-up by its chip", async () => {
    const page = await signedIn();
    await page.getByTestId("chat-input").fill("Hvad er klagefristen for en afgørelse?");
    await page.getByTestId("chat-input").press("Enter");
    await complete(page, "Svar på: Hvad er klagefristen for en afgørelse?");
    // follow-ups under the latest answer, from the cited article's headings
    const chips = page.getByTestId("follow-ups").getByRole("button");
    await chips.first().waitFor();
    expect(await chips.count()).toBeLessThanOrEqual(3);

    // edit the question inline (keyboard: the editor takes focus, Gem saves)
    await page.getByRole("button", { name: "Ret spørgsmål" }).click();
    const editor = page.getByRole("textbox", { name: "Ret dit spørgsmål" });
    expect(await editor.evaluate((el) => el === document.activeElement)).toBe(true);
    await editor.fill("Hvem behandler klagen?");
    await page.getByRole("button", { name: "Gem" }).click();
    await complete(page, "Svar på: Hvem behandler klagen?");
    const switcher = page.getByRole("group", { name: "Udgave 2 af 2" });
    await switcher.waitFor();
    expect(await questions(page).innerText()).toContain("Hvem behandler klagen?");
    await shot(page, "chat-branches-desktop");

    // back to the first version: its question and answer show again
    await switcher.getByRole("button", { name: "Forrige udgave" }).click();
    await page.getByRole("group", { name: "Udgave 1 af 2" }).waitFor();
    await complete(page, "Svar på: Hvad er klagefristen for en afgørelse?");
    expect(await questions(page).innerText()).toContain("Hvad er klagefristen for en afgørelse?");
    expect(await answers(page).count()).toBe(1);

    // regenerate the answer: a second version of it
    await page.getByRole("button", { name: "Generér nyt svar" }).click();
    await answers(page).getByRole("group", { name: "Udgave 2 af 2" }).waitFor();
    await complete(page, "Svar på: Hvad er klagefristen for en afgørelse?");

    // a follow-up chip asks its question
    const chip = page.getByTestId("follow-ups").getByRole("button").first();
    const followUp = (await chip.innerText()).trim();
    // by keyboard: the chip is a button
    await chip.focus();
    await page.keyboard.press("Enter");
    await complete(page, `Svar på: ${followUp}`);
    expect(await questions(page).count()).toBe(2);
    await expectAccessible(page, "chat branches (desktop)");
  });

  it("should stream a regenerated and an edited answer from its first token, before the mutation answers", async () => {
    const page = await signedIn();
    await page.getByTestId("chat-input").fill("Hvad er klagefristen for en afgørelse?");
    await page.getByTestId("chat-input").press("Enter");
    await complete(page, "Svar på: Hvad er klagefristen for en afgørelse?");
    try {
      // the server starts the new answer and streams it while the page still waits for the mutation's response
      fake.setBehaviour({ reply: (req) => (req.stream ? "Et nyt svar, vist fra første ord [1]" : "Klager") });
      let release = await holdResponse(page, "RegenerateChatMessage");
      await page.getByRole("button", { name: "Generér nyt svar" }).click();
      await complete(page, "Et nyt svar, vist fra første ord");
      expect(await answers(page).count()).toBe(1);
      await release();
      await answers(page).getByRole("group", { name: "Udgave 2 af 2" }).waitFor();
      expect(await answers(page).count()).toBe(1);
      expect(await answers(page).innerText()).toContain("Et nyt svar, vist fra første ord");

      fake.setBehaviour({ reply: (req) => (req.stream ? "Svaret på det rettede spørgsmål [1]" : "Klager") });
      release = await holdResponse(page, "EditChatMessage");
      await page.getByRole("button", { name: "Ret spørgsmål" }).click();
      await page.getByRole("textbox", { name: "Ret dit spørgsmål" }).fill("Hvem behandler klagen?");
      await page.getByRole("button", { name: "Gem" }).click();
      await complete(page, "Svaret på det rettede spørgsmål");
      expect(await answers(page).count()).toBe(1);
      await shot(page, "chat-branches-streamed-early");
      await release();
      await page.getByRole("group", { name: "Udgave 2 af 2" }).waitFor();
      expect(await questions(page).innerText()).toContain("Hvem behandler klagen?");
      expect(await answers(page).count()).toBe(1);
      expect(await answers(page).innerText()).toContain("Svaret på det rettede spørgsmål");
    } finally {
      fake.setBehaviour({ reply: scripted });
    }
  });

  it("should replace the heading-based chips with the model-written follow-ups when they arrive", async () => {
    const written = ["Hvem behandler klagen?", "Kan en afgørelse genoptages?"];
    // the model's suggestions are held until the heading-based chips are on screen: no delay to race a busy machine
    let releaseFollowUps = () => {};
    const held = new Promise<void>((resolve) => {
      releaseFollowUps = resolve;
    });
    fake.setFollowUps({ reply: written.join("\n"), held });
    try {
      const { page, token } = await signedInChat(app, browser, contexts, {}, async (p) =>
        watchPreferences(p),
      );
      const chipSets = await recordChips(page);
      await page.getByTestId("chat-input").fill("Hvad er klagefristen for en afgørelse?");
      await page.getByTestId("chat-input").press("Enter");
      await complete(page, "Svar på: Hvad er klagefristen for en afgørelse?");
      // the answer is not held back for the model: its heading-based chips show while the model is still asked
      const chips = page.getByTestId("follow-ups").getByRole("button");
      await chips.first().waitFor();
      releaseFollowUps();
      // the model's chips replace the others live…
      await page.getByTestId("follow-ups").getByRole("button", { name: written[1] }).waitFor();
      expect((await chips.allInnerTexts()).map((t) => t.trim())).toEqual(written);
      // …after the heading-based ones showed first (the answer was not held back for the model)
      const seen = await chipSets();
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen[0]).not.toEqual(written);
      expect(seen.at(-1)).toEqual(written);
      await shot(page, "chat-follow-ups-desktop");

      // 390 px, dark, in English: the model is asked in English
      const english = [
        "Who handles the complaint?",
        "Can a decision be reopened?",
        "What happens after the deadline?",
      ];
      fake.setFollowUps({ reply: english.join("\n") });
      // the same page narrowed, its user's theme and language saved on the server and pushed to it, in a new chat
      const small = page;
      await toPhoneDarkEnglishNewChat(app, token, small);
      // (the sample articles are Danish: the question is too; the user's language is English)
      await small.getByTestId("chat-input").fill("Hvad er klagefristen for en afgørelse?");
      await small.getByTestId("chat-input").press("Enter");
      await complete(small, "Svar på: Hvad er klagefristen for en afgørelse?");
      await small.getByTestId("follow-ups").getByRole("button", { name: english[2] }).waitFor();
      expect(fake.followUpRequests().at(-1)?.body.messages[0].content).toContain("på engelsk");
      expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await shot(small, "chat-follow-ups-390-dark-en");
      await expectAccessible(small, "model-written follow-ups (390 px, dark, English)");
    } finally {
      releaseFollowUps();
      fake.setFollowUps({ reply: "", delayMs: 0, held: undefined });
    }
  });

  it("should show the versions at 390 px in dark, in English", async () => {
    const page = await signedIn({ width: 390, theme: "dark", language: "en" });
    await page.getByTestId("chat-input").fill("Hvad er klagefristen for en afgørelse?");
    await page.getByTestId("chat-input").press("Enter");
    await complete(page, "Svar på: Hvad er klagefristen for en afgørelse?");
    const chip = page.getByTestId("follow-ups").getByRole("button").first();
    expect(await chip.innerText()).toMatch(/^What does it say about |\?$/);
    await page.getByRole("button", { name: "Edit question" }).click();
    await page.getByRole("textbox", { name: "Edit your question" }).fill("Hvem behandler klagen?");
    await shot(page, "chat-branches-editor-390-dark-en");
    await page.getByRole("textbox", { name: "Edit your question" }).press("Control+Enter");
    await complete(page, "Svar på: Hvem behandler klagen?");
    await page.getByRole("group", { name: "Version 2 of 2" }).waitFor();
    await page.getByTestId("follow-ups").getByRole("button").first().waitFor();
    // nothing wider than the screen
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, "chat-branches-390-dark-en");
    await expectAccessible(page, "chat branches (390 px, dark, English)");
  });
});
