/**
 * Sharing a conversation read-only, end to end (issue 17): the owner shares from the chat header, a colleague
 * opens the link (citations shown and linking), a signed-out visitor goes through login and back, the owner
 * revokes and the link shows the 404 page. Retrieval-only answers (no model): fast. axe on every screen.
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Q } from "../../api/src/chat/chat.test-helpers";
import type { TestApp } from "../../api/src/testing/app";
import { createVerifiedUser, gql, loginAdmin } from "../../api/src/testing/client";
import { AdminPage } from "./pages/AdminPage";
import { LoginPage } from "./pages/LoginPage";
import { expectAccessible } from "./support/axe";
import { closeAfterEach, launchBrowser, newContext } from "./support/browser";
import { SCREENSHOT_DIR, screenshot } from "./support/screenshots";
import { startServer, stopChatFile } from "./support/server";

type User = Awaited<ReturnType<typeof createVerifiedUser>>;
let app: TestApp;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  app = await startServer({ mail: "outbox" });
  browser = await launchBrowser();
}, 120_000);
closeAfterEach(contexts);
afterAll(async () => {
  await stopChatFile(app, browser, contexts);
});

interface Look {
  width?: number;
  theme?: "light" | "dark";
  language?: "da" | "en";
}

async function user(look: Look = {}): Promise<User> {
  const u = await createVerifiedUser(app);
  if (look.theme || look.language) {
    await gql(
      app,
      "mutation($i: PreferencesInput!) { updatePreferences(input: $i) { theme } }",
      { i: { theme: look.theme ?? "light", language: look.language ?? "da" } },
      u.token,
    );
  }
  return u;
}

async function pageOf(u: User | null, look: Look = {}): Promise<Page> {
  const context = await newContext(browser, {
    baseURL: app.url,
    width: look.width,
    height: look.width && look.width < 600 ? 844 : 860,
    theme: look.theme,
    language: look.language,
  });
  contexts.push(context);
  if (u) await context.addInitScript((t: string) => localStorage.setItem("auth_token", t), u.token);
  return context.newPage();
}

/** Screenshots for the report: artifacts/screenshots, copied to /tmp/shots-chat-share. */
async function shot(page: Page, name: string) {
  await screenshot(page, name);
  fs.mkdirSync("/tmp/shots-chat-share", { recursive: true });
  fs.copyFileSync(path.join(SCREENSHOT_DIR, `${name}.png`), `/tmp/shots-chat-share/${name}.png`);
}

describe("web: share a conversation read-only", () => {
  it("should share from the chat, open as a colleague with working sources, and show 404 after revoke", async () => {
    const owner = await user();
    const { createSession } = (await gql(app, Q.create, {}, owner.token)).data;
    await gql(
      app,
      Q.send,
      { sessionId: createSession.sessionId, content: "Hvad er klagefristen?" },
      owner.token,
    );
    await app.services.chat.whenIdle();

    // the owner: "Del" in the chat header → create the link
    const ownerPage = await pageOf(owner);
    await ownerPage.goto("/");
    await ownerPage.getByTestId("session-item").first().click();
    await ownerPage.locator('[data-testid="assistant-message"][data-status="complete"]').waitFor();
    await ownerPage.getByRole("button", { name: "Del samtalen" }).click();
    const dialog = ownerPage.getByRole("dialog", { name: "Del samtalen" });
    await dialog.getByText("som den ser ud nu").first().waitFor();
    await dialog.getByRole("button", { name: "Opret link" }).click();
    const link = await dialog.getByTestId("share-link").inputValue();
    expect(link).toMatch(/\/shared\/[A-Za-z0-9_-]{32}$/);
    await dialog.getByTestId("share-list").getByText(link).waitFor();
    await shot(ownerPage, "share-dialog-desktop-light");
    await expectAccessible(ownerPage, "share dialog");
    const sharedPath = new URL(link).pathname;

    // a colleague opens it: title, owner, the messages, sources that link; no composer, no feedback
    const colleague = await user({ theme: "dark", language: "en" });
    const viewer = await pageOf(colleague, { width: 390, theme: "dark", language: "en" });
    await viewer.goto(sharedPath);
    await viewer.getByTestId("shared-title").waitFor();
    expect(await viewer.getByTestId("shared-title").innerText()).toBe("Hvad er klagefristen?");
    expect(await viewer.getByTestId("shared-by").innerText()).toContain(owner.user.name);
    expect(await viewer.getByTestId("user-message").count()).toBe(1);
    const answer = viewer.getByTestId("assistant-message");
    const source = answer.locator("a[data-source]").first();
    await source.waitFor();
    expect(await viewer.getByTestId("chat-input").count()).toBe(0);
    expect(await viewer.getByRole("button", { name: /helpful/i }).count()).toBe(0);
    const overflow = await viewer.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await shot(viewer, "shared-page-390-dark-en");
    await expectAccessible(viewer, "shared page (390, dark, en)");
    const href = await source.getAttribute("href");
    expect(href).toMatch(/^\/knowledge\?article=/);
    await source.click();
    await viewer.waitForURL((url) => url.pathname === "/knowledge");

    // signed out: to the login page and back to the shared conversation
    const visitor = await user();
    const anon = await pageOf(null);
    await anon.goto(sharedPath);
    const login = new LoginPage(anon);
    await login.heading().waitFor();
    await login.login(visitor.input.email, visitor.input.password);
    await anon.waitForURL((url) => url.pathname === sharedPath);
    await anon.getByTestId("shared-title").waitFor();
    await shot(anon, "shared-page-desktop-light");

    // the owner revokes it → the link answers with the 404 page
    await dialog.getByRole("button", { name: /^Tilbagekald linket/ }).click();
    await dialog.getByText("Samtalen er ikke delt endnu.").waitFor();
    await anon.reload();
    await anon.getByTestId("shared-not-found").waitFor();
    expect(await anon.getByRole("heading", { level: 1 }).innerText()).toBe("Den delte samtale findes ikke");
    await expectAccessible(anon, "shared 404");
    await viewer.goto(sharedPath);
    await viewer.getByTestId("shared-not-found").waitFor();
    await shot(viewer, "shared-404-390-dark-en");
    await expectAccessible(viewer, "shared 404 (390, dark, en)");
  });

  it("should fit the share dialog at 390 px in dark English", async () => {
    const owner = await user({ theme: "dark", language: "en" });
    const { createSession } = (await gql(app, Q.create, {}, owner.token)).data;
    await gql(
      app,
      Q.send,
      { sessionId: createSession.sessionId, content: "Hvad er klagefristen?" },
      owner.token,
    );
    await app.services.chat.whenIdle();
    const page = await pageOf(owner, { width: 390, theme: "dark", language: "en" });
    await page.goto("/");
    await page.getByTestId("open-sessions").click();
    await page.getByTestId("session-item").first().click();
    await page.locator('[data-testid="assistant-message"][data-status="complete"]').waitFor();
    await page.getByRole("button", { name: "Share the conversation" }).click();
    const dialog = page.getByRole("dialog", { name: "Share the conversation" });
    await dialog.getByRole("button", { name: "Create link" }).click();
    await dialog.getByTestId("share-list").waitFor();
    await shot(page, "share-dialog-390-dark-en");
    await expectAccessible(page, "share dialog (390, dark, en)");

    // the admin sees the shares in the activity log, with their own icon and label
    const adminPage = await pageOf({ token: await loginAdmin(app) } as User);
    await new AdminPage(adminPage).goto("activity");
    const shared = adminPage.locator('[data-testid="admin-activity-item"][data-action="chat_share"]').first();
    await shared.getByText("Delt samtale").waitFor();
    expect(await shared.innerText()).toContain("delte samtalen");
    await shot(adminPage, "admin-activity-share-desktop-light");
  });
});
