/**
 * The chat screen end to end: the real server (startTestApp) answering through the local fake OpenAI server, the
 * production web build in headless Chromium.
 */
import fs from "node:fs/promises";
import type { Browser, BrowserContext, Dialog, Page, Request } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Q, sampleArticleId } from "../../api/src/chat/chat.test-helpers";
import type { TestApp } from "../../api/src/testing/app";
import { createVerifiedUser, gql } from "../../api/src/testing/client";
import { type FakeChatRequest, type FakeOpenAI, startFakeOpenAI } from "../../api/src/testing/fake-openai";
import { articleHref } from "../src/lib/anchors";
import { Toast } from "./pages/Toast";
import { launchBrowser } from "./support/browser";
import { holdOperation } from "./support/hold";
import { recordInPage } from "./support/record";
import { screenshot } from "./support/screenshots";
import { startServer, stopChatFile } from "./support/server";
import {
  type SignedInOptions,
  savePreferences,
  signedInChat,
  signedInPage,
  toPhoneDarkEnglishNewChat,
  watchPreferences,
} from "./support/signed-in";

const ANSWER =
  "Klagefristen er **fire uger** fra den dag, afgørelsen er modtaget [1]. Kontrollér altid oplysningerne.";
const TITLE = "Klagefrist for afgørelser";
const EVIL =
  "Se <img src=x onerror=alert(1)> og [klik her](javascript:alert(1)) samt ![sporing](https://remote.example/track.png) [1].";

let answer = ANSWER;
function scripted(req: FakeChatRequest): string {
  return req.stream ? answer : TITLE;
}

let fake: FakeOpenAI;
let app: TestApp;
let browser: Browser;
let klagerId: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI({ reply: scripted, firstTokenDelayMs: 400, tokenDelayMs: 25 });
  app = await startServer({
    mail: "outbox",
    config: {
      openaiBaseUrl: fake.baseURL,
      openaiApiKey: "sk-test",
      openaiModel: "fake-model",
      chatLimits: { llmTimeoutMs: 20_000, llmFirstTokenTimeoutMs: 5_000, llmMaxRetries: 0, heartbeatMs: 200 },
    },
  });
  klagerId = await sampleArticleId(app, "sagsbehandling/klager-over-afgoerelser.md");
  browser = await launchBrowser();
}, 120_000);
afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close();
  await app.services.chat.whenIdle();
  fake.reset();
  answer = ANSWER;
});
afterAll(async () => {
  await shared?.context().close();
  await stopChatFile(app, browser);
  await fake?.close();
});

interface Opts extends SignedInOptions {
  /** the page's websocket to /graphql is refused (polling must take over) */
  blockWebsocket?: boolean;
  /** the page is to follow preferences saved on the server (savePreferences) */
  preferencesPushed?: boolean;
}

/** A new verified staff user, signed in in a fresh browser context, on `/`. */
async function signedIn(opts: Opts = {}): Promise<{ page: Page; token: string }> {
  return signedInChat(app, browser, contexts, opts, async (page) => {
    if (opts.blockWebsocket) await page.routeWebSocket(/\/graphql/, (ws) => ws.close({ code: 1011 }));
    if (opts.preferencesPushed) watchPreferences(page);
  });
}

/**
 * A new verified user with one session per question, each answered (and named by the model), made through the API
 * before any page opens: for tests about what comes after, without streaming the answers into a page.
 */
async function userWithSessions(questions: string[]): Promise<string> {
  const { token } = await createVerifiedUser(app);
  for (const question of questions) {
    const created = await gql<{ createSession: { sessionId: string } }>(app, Q.create, {}, token);
    const sessionId = created.data?.createSession.sessionId;
    expect((await gql(app, Q.send, { sessionId, content: question }, token)).errors).toBeUndefined();
    await app.services.chat.whenIdle(); // the answer and the model's title written
  }
  return token;
}

/**
 * The file's shared page: one user, signed in once (desktop, light, Danish), for the tests that need no fresh
 * session list, another mode or a load of their own. The last test to use it signs its user out.
 */
let shared: Page | undefined;
let sharedToken: string;
async function sharedPage(): Promise<{ page: Page; fresh: boolean }> {
  if (shared) return { page: shared, fresh: false };
  const signedIn = await signedInPage(app, browser);
  await signedIn.page.goto("/");
  await signedIn.page.getByTestId("chat-input").waitFor();
  [shared, sharedToken] = [signedIn.page, signedIn.token];
  return { page: shared, fresh: true };
}

/** The sidebar's "Ny chat" button (a session of that name is a button of that name too). */
const newChatButton = (page: Page) =>
  page
    .getByRole("button", { name: "Ny chat", exact: true })
    .and(page.locator(':not([data-testid="session-item"])'));

/** The shared page in a new chat of its own (the first test on the chat screen just after signing in). */
async function inNewChat(): Promise<Page> {
  const { page, fresh } = await sharedPage();
  if (!fresh) {
    await newChatButton(page).click();
    await page.getByText("Hvad vil du vide?").waitFor();
    expect(await page.getByTestId("user-message").count()).toBe(0);
  }
  return page;
}

async function ask(page: Page, question: string) {
  await page.getByTestId("chat-input").fill(question);
  await page.getByTestId("chat-input").press("Enter");
}

const lastAnswer = (page: Page) => page.getByTestId("assistant-message").last();

/**
 * Records in the page what the last answer row shows on its way (its status and text at every change, however
 * briefly: "Genererer svar..." lasts a few hundred milliseconds, which a wait from the test can miss).
 */
function recordLastAnswer(page: Page) {
  return recordInPage(page, () => {
    const rows = document.querySelectorAll<HTMLElement>('[data-testid="assistant-message"]');
    const last = rows[rows.length - 1];
    return last ? { status: last.dataset.status ?? "", text: last.innerText } : undefined;
  });
}

/**
 * Asks `question` with the send mutation held back (a slow network or a busy server: its response brings the
 * messages): the input clears, and the question and `generating` show before anything answered; once it is let
 * through, the real answer takes the waiting row's place: the same element, at the same place in the list,
 * streams the answer (nothing remounted or moved), and the question is listed once.
 */
async function askHeld(page: Page, question: string, generating: string, shot?: string) {
  const complete = page.locator('[data-testid="assistant-message"][data-status="complete"]');
  const before = await complete.count();
  const release = await holdOperation(page, "SendChatMessage");
  await ask(page, question);
  expect(await page.getByTestId("chat-input").inputValue()).toBe("");
  await page.getByTestId("user-message").filter({ hasText: question }).waitFor({ timeout: 10_000 });
  const waiting = lastAnswer(page);
  await waiting.getByText(generating).waitFor({ timeout: 10_000 });
  if (shot) await screenshot(page, shot);
  const row = await waiting.elementHandle();
  const place = () =>
    row?.evaluate((el) => el.isConnected && el.closest<HTMLElement>("[data-index]")?.style.transform);
  const at = await place();
  await release();
  await complete.nth(before).waitFor();
  expect(await row?.evaluate((el) => el.getAttribute("data-status"))).toBe("complete");
  expect(await place()).toBe(at);
  expect(await page.getByTestId("user-message").filter({ hasText: question }).count()).toBe(1);
}

describe("web: chat", () => {
  it("should create a chat on the first question, stream the answer with a citation and open the cited heading", async () => {
    const { page } = await signedIn();
    await expect(page.getByText("Ingen samtaler fundet")).toBeTruthy();
    await page.getByText("Ingen samtaler fundet").waitFor();

    // whitespace only is not sent
    await page.getByTestId("chat-input").fill("   \n  ");
    await page.getByTestId("chat-input").press("Enter");
    expect(await page.getByTestId("user-message").count()).toBe(0);

    // Shift+Enter adds a line, Enter sends
    await page.getByTestId("chat-input").fill("Hvad er klagefristen");
    await page.getByTestId("chat-input").press("Shift+Enter");
    await page.getByTestId("chat-input").pressSequentially("for en afgørelse?");
    expect(await page.getByTestId("chat-input").inputValue()).toBe("Hvad er klagefristen\nfor en afgørelse?");
    const states = await recordLastAnswer(page);
    // the model's title for the session is held until the answer has ended (it is written in the background)
    let releaseTitle: () => void = () => undefined;
    fake.setBehaviour({ titlesHeld: new Promise<void>((r) => (releaseTitle = r)) });
    await page.getByTestId("chat-input").press("Enter");

    // the answer streams in: "Genererer svar...", some text while still streaming, then the whole answer
    await page.locator('[data-testid="assistant-message"][data-status="complete"]').waitFor();
    expect(await lastAnswer(page).innerText()).toContain("fire uger");
    const seen = await states();
    expect(seen.some((s) => s.text.includes("Genererer svar..."))).toBe(true);
    // the first text shown while streaming
    const streaming = seen.find((s) => s.status === "streaming" && s.text.trim());
    expect(streaming).toBeDefined();
    expect(streaming?.text).not.toContain("Kontrollér altid oplysningerne");
    // the session was created and named by its first question's words, then by the model's title when it came
    // (after the answer: the list hears of it from the server, a TITLED event, without a reload)
    await page.getByTestId("session-item").filter({ hasText: "Hvad er klagefristen" }).waitFor();
    releaseTitle();
    await page.getByTestId("session-item").filter({ hasText: TITLE }).waitFor();
    // completion is announced once
    await page.getByTestId("chat-announcer").filter({ hasText: "Svaret er klar" }).waitFor();

    // [1] links to the cited article at its heading
    const citation = lastAnswer(page).locator("a[data-citation='1']");
    const href = await citation.getAttribute("href");
    expect(href).toMatch(/^\/knowledge\?article=[^#]+#h-[\p{L}\p{N}-]+$/u);
    expect(href).toContain(encodeURIComponent(klagerId));
    expect(href).toBe(articleHref(klagerId, ["Klager over afgørelser og klagefrist", "Klagefristen"]));
    // the source list under the answer: title › section
    await lastAnswer(page).getByText("Klager over afgørelser og klagefrist › Klagefristen").waitFor();
    await screenshot(page, "chat-desktop-light");
    await citation.click();
    await page.waitForURL((url) => `${url.pathname}${url.search}${url.hash}` === href);
  });

  it("should show the question and 'Genererer svar...' from the moment of sending, while the send is answered", async () => {
    // the answers are read once complete, not while streaming: whole after the first token's delay
    fake.setBehaviour({ tokenDelayMs: 0 });
    const { page, token } = await signedIn({ preferencesPushed: true });
    await page.getByText("Ingen samtaler fundet").waitFor();
    // a new session (the send creates it), then a question in it
    await askHeld(page, "Hvad er klagefristen?", "Genererer svar...", "chat-pending-light");
    await askHeld(page, "Og for en afgørelse om tilskud?", "Genererer svar...");
    expect(await page.getByTestId("assistant-message").count()).toBe(2);

    // at 390 px, dark, in English, in a new chat: the same page narrowed (the layout follows the viewport), its
    // user's theme and language saved on the server and pushed to it
    await toPhoneDarkEnglishNewChat(app, token, page);
    await askHeld(page, "Hvad er klagefristen?", "Generating answer...", "chat-pending-390-dark-en");
  });

  it("should show an LLM error calmly and retry it", async () => {
    fake.setBehaviour({ failure: { type: "http", status: 500 } });
    const page = await inNewChat();
    await ask(page, "Hvad er klagefristen?");
    await lastAnswer(page).getByTestId("answer-error").waitFor({ timeout: 15_000 });
    expect(await lastAnswer(page).getAttribute("data-status")).toBe("error");
    await screenshot(page, "chat-error-light");
    fake.setBehaviour({ failure: null, tokenDelayMs: 0 }); // the retried answer is read once complete
    await lastAnswer(page).getByRole("button", { name: "Prøv igen" }).click();
    await page.locator('[data-testid="assistant-message"][data-status="complete"]').waitFor();
    expect(await lastAnswer(page).getByTestId("answer-error").count()).toBe(0);
  });

  it("should give the question back to the field when the send fails, and leave no waiting row", async () => {
    // a session with one answer (read once complete: whole after the first token)
    fake.setBehaviour({ tokenDelayMs: 0, firstTokenDelayMs: 0 });
    const page = await inNewChat();
    await ask(page, "Hvad er klagefristen?");
    await page.locator('[data-testid="assistant-message"][data-status="complete"]').waitFor();
    // the next send is held, then fails on the way (the network dropped)
    let fail = () => {};
    const failed = new Promise<void>((r) => {
      fail = r;
    });
    await page.route("**/graphql", async (route) => {
      if (route.request().postDataJSON()?.operationName !== "SendChatMessage") return route.continue();
      await failed;
      await route.abort();
    });
    try {
      await ask(page, "Og for en afgørelse om tilskud?");
      await page.getByTestId("user-message").filter({ hasText: "Og for en afgørelse om tilskud?" }).waitFor();
      await lastAnswer(page).getByText("Genererer svar...").waitFor();
      fail();
      await new Toast(page).waitForTitle("Beskeden kunne ikke sendes");
      expect(await page.getByTestId("chat-input").inputValue()).toBe("Og for en afgørelse om tilskud?");
      expect(await page.getByTestId("user-message").count()).toBe(1);
      expect(await page.getByTestId("assistant-message").count()).toBe(1);
      expect(await page.getByText("Genererer svar...").count()).toBe(0);
    } finally {
      fail();
      await page.unroute("**/graphql");
    }
  });

  it("should stop a streaming answer and retry it", async () => {
    fake.setBehaviour({ tokenDelayMs: 120 });
    const page = await inNewChat();
    await ask(page, "Hvad er klagefristen?");
    await page.locator('[data-testid="assistant-message"][data-status="streaming"]').waitFor();
    await page.getByRole("button", { name: "Stop svaret" }).click();
    await lastAnswer(page).getByText("Svaret blev stoppet, før det var færdigt.").waitFor();
    expect(await lastAnswer(page).getAttribute("data-status")).toBe("stopped");
    fake.setBehaviour({ tokenDelayMs: 5 });
    await lastAnswer(page).getByRole("button", { name: "Prøv igen" }).click();
    await page.locator('[data-testid="assistant-message"][data-status="complete"]').waitFor();
    expect(await lastAnswer(page).innerText()).toContain("Kontrollér altid oplysningerne");
  });

  it("should rename, search, export and delete sessions", async () => {
    // two answered sessions with the model's titles, made through the API before the page opens (no answer streamed
    // into the page: the first test shows that; the titles' arrival in an open list: the first test too)
    fake.setBehaviour({ tokenDelayMs: 0, firstTokenDelayMs: 0 });
    const token = await userWithSessions(["Hvad er klagefristen?", "Hvordan er økonomien fordelt?"]);
    const { page } = await signedIn({ token });
    await page.getByText("I dag").waitFor();

    // rename the newest session inline (both have the model's title: the first by that name)
    expect(await page.getByTestId("session-item").filter({ hasText: TITLE }).count()).toBe(2);
    await page
      .getByRole("button", { name: `Handlinger for ${TITLE}` })
      .first()
      .click();
    await page.getByRole("menuitem", { name: "Omdøb" }).click();
    const field = page.getByLabel("Nyt navn til samtalen");
    await field.fill("Budget og regnskab");
    await field.press("Enter");
    await page.getByTestId("session-item").filter({ hasText: "Budget og regnskab" }).waitFor();

    // search through the API: by message text
    await page.getByRole("searchbox", { name: "Søg i samtaler" }).fill("økonomien");
    await expect.poll(() => page.getByTestId("session-item").count()).toBe(1);
    expect(await page.getByTestId("session-item").innerText()).toContain("Budget og regnskab");
    await page.getByRole("searchbox", { name: "Søg i samtaler" }).fill("findes-ikke-xyz");
    await page.getByText("Ingen samtaler fundet").waitFor();
    await page.getByRole("button", { name: "Ryd søgning" }).click();
    await expect.poll(() => page.getByTestId("session-item").count()).toBe(2);

    // export as a Markdown download
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Handlinger for Budget og regnskab" }).click();
    await page.getByRole("menuitem", { name: "Eksportér som Markdown" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("Budget-og-regnskab.md");
    const text = await fs.readFile(await file.path(), "utf8");
    expect(text).toContain("Budget og regnskab");
    expect(text).toContain("Hvordan er økonomien fordelt?");

    // delete with a confirmation
    await page.getByRole("button", { name: "Handlinger for Budget og regnskab" }).click();
    await page.getByRole("menuitem", { name: "Slet" }).click();
    const dialog = page.getByRole("dialog", { name: "Slet samtale" });
    await dialog.getByRole("button", { name: "Annuller" }).click();
    expect(await page.getByTestId("session-item").count()).toBe(2);
    await page.getByRole("button", { name: "Handlinger for Budget og regnskab" }).click();
    await page.getByRole("menuitem", { name: "Slet" }).click();
    await dialog.getByRole("button", { name: "Slet" }).click();
    await expect.poll(() => page.getByTestId("session-item").count()).toBe(1);
    // the remaining session is selected (by an effect after the list without the deleted one has rendered)
    await expect.poll(() => page.getByTestId("session-item").getAttribute("aria-current")).toBe("page");
  });

  it("should render a hostile message and answer inertly", async () => {
    answer = EVIL;
    fake.setBehaviour({ tokenDelayMs: 0 });
    const page = await inNewChat();
    const dialogs: string[] = [];
    const remote: string[] = [];
    const onDialog = (d: Dialog) => {
      dialogs.push(d.message());
      void d.dismiss();
    };
    const onRequest = (r: Request) => {
      if (new URL(r.url()).hostname.endsWith("remote.example") || /\/x$/.test(r.url())) remote.push(r.url());
    };
    page.on("dialog", onDialog);
    page.on("request", onRequest);
    try {
      await ask(page, EVIL);
      await page.locator('[data-testid="assistant-message"][data-status="complete"]').waitFor();
      await page.waitForTimeout(300);
      const list = page.getByTestId("message-list");
      expect(await list.locator("img").count()).toBe(0);
      expect(await list.locator("script").count()).toBe(0);
      expect(await list.locator('a[href^="javascript:"]').count()).toBe(0);
      expect(await list.locator("[onerror]").count()).toBe(0);
      // the user's text is shown as text
      expect(await page.getByTestId("user-message").innerText()).toContain("<img src=x onerror=alert(1)>");
      // links that stay open in a new tab without an opener
      for (const a of await list.locator('a[target="_blank"]').all()) {
        expect(await a.getAttribute("rel")).toBe("noopener noreferrer");
      }
      expect(dialogs).toEqual([]);
      expect(remote).toEqual([]);
    } finally {
      page.off("dialog", onDialog);
      page.off("request", onRequest);
    }
  });

  it("should open the sessions in a drawer at 390 px", async () => {
    fake.setBehaviour({ tokenDelayMs: 0, firstTokenDelayMs: 0 });
    const { page } = await signedIn({ width: 390 });
    await ask(page, "Hvad er klagefristen?");
    await page.locator('[data-testid="assistant-message"][data-status="complete"]').waitFor();
    expect(await page.getByTestId("session-item").count()).toBe(0); // the drawer is closed
    await screenshot(page, "chat-mobile-light");
    await page.getByRole("button", { name: "Vis samtaler" }).click();
    await page.getByTestId("session-item").filter({ hasText: TITLE }).waitFor();
    await screenshot(page, "chat-mobile-drawer-light");
    await page.getByRole("button", { name: "Ny chat" }).click();
    await page.getByText("Hvad vil du vide?").waitFor();
    await expect.poll(() => page.getByTestId("session-item").count()).toBe(0);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
  });

  it("should fall back to polling every 2 s when the websocket cannot connect", async () => {
    fake.setBehaviour({ tokenDelayMs: 20, firstTokenDelayMs: 200 });
    const { page } = await signedIn({ blockWebsocket: true });
    await ask(page, "Hvad er klagefristen?");
    await page.getByText("Genererer svar...").waitFor();
    await page
      .locator('[data-testid="assistant-message"][data-status="complete"]')
      .waitFor({ timeout: 15_000 });
    expect(await lastAnswer(page).innerText()).toContain("Kontrollér altid oplysningerne");
  });

  it("should go to /login when creating a chat answers 401", async () => {
    // the shared page's last test
    const { page } = await sharedPage();
    // the login session ends on the server (e.g. it expired); the screen still shows the chat
    await gql(app, "mutation { logout }", {}, sharedToken);
    await newChatButton(page).click();
    await page.waitForURL((url) => url.pathname === "/login");
  });

  // (the chat with a sourced answer at 1280 and 390 px, light and dark, sessions drawer open, with axe: the
  // tour's three walks and tour-narrow's dark drawer)

  it("should speak English by message key", async () => {
    fake.setBehaviour({ tokenDelayMs: 0, firstTokenDelayMs: 0 });
    const { page } = await signedIn({ language: "en" });
    await page.getByRole("button", { name: "New chat" }).waitFor();
    await page.getByText("No conversations found").waitFor();
    await ask(page, "Hvad er klagefristen?");
    await page.locator('[data-testid="assistant-message"][data-status="complete"]').waitFor();
    await page.getByText("Sources").waitFor();
    await screenshot(page, "chat-desktop-en");
  });

  it("should show a session still titled 'Ny chat' as untitled in English: sidebar, header, search and delete dialog", async () => {
    const { page, token } = await signedIn({ language: "en", preferencesPushed: true });
    await page.getByRole("button", { name: "New chat" }).click();
    const item = page.getByTestId("session-item");
    await item.waitFor();
    await expect.poll(() => item.innerText()).toContain("New chat");
    // the session is selected (its Share button): the header shows its title, not the no-session text
    await page.getByRole("button", { name: "Share" }).waitFor();
    expect(await page.getByTestId("chat-title").innerText()).toBe("New chat");
    // "Search conversations" finds it by the words it is shown with
    const searched = page.waitForResponse(
      (r) =>
        r.url().endsWith("/graphql") && r.request().postDataJSON()?.operationName === "SearchChatSessions",
    );
    await page.getByRole("searchbox", { name: "Search conversations" }).fill("new chat");
    await searched;
    await expect.poll(() => page.getByTestId("session-item").count()).toBe(1);
    await page.getByRole("button", { name: "Actions for New chat" }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await page.getByText("The conversation “New chat” and all its messages will be deleted.").waitFor();
    await screenshot(page, "chat-untitled-en");
    expect(await page.locator("body").innerText()).not.toContain("Ny chat");
    // deleted: no session left, none selected (no Share button), the search cleared
    await page
      .getByRole("dialog", { name: "Delete conversation" })
      .getByRole("button", { name: "Delete" })
      .click();
    await expect.poll(() => page.getByTestId("session-item").count()).toBe(0);
    await expect.poll(() => page.getByRole("button", { name: "Share" }).count()).toBe(0);
    await page.getByRole("button", { name: "Clear search" }).click();
    expect(await page.getByRole("searchbox", { name: "Search conversations" }).inputValue()).toBe("");

    // at 390 px in dark: the header, and the session in the drawer (the same page narrowed, its user's theme saved
    // on the server and pushed to it)
    const phone = page;
    await phone.setViewportSize({ width: 390, height: 844 });
    await savePreferences(app, token, phone, { theme: "dark", language: "en" });
    await phone.getByTestId("open-sessions").click();
    await phone.getByRole("button", { name: "New chat" }).click();
    // the session is selected (its Share button) and the drawer closed (the page behind it is no longer hidden)
    await phone.getByRole("button", { name: "Share" }).waitFor();
    expect(await phone.getByTestId("chat-title").innerText()).toBe("New chat");
    await phone.getByTestId("open-sessions").click();
    await expect.poll(() => phone.getByTestId("session-item").first().innerText()).toContain("New chat");
    await screenshot(phone, "chat-untitled-390-dark-en");
  });
});
