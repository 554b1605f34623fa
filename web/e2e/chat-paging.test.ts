/**
 * A long session in the chat screen (real server, production web build, headless Chromium): it opens at its
 * newest page, scrolled to the bottom; scrolling to the top loads the page before it while the message being read
 * stays where it was, until the session's first message; the order has no gaps. Screenshots of a long session
 * (desktop, 390 px, dark, English).
 */
import mongoose from "mongoose";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../api/src/testing/app";
import { createVerifiedUser, gql } from "../../api/src/testing/client";
import { expectAccessible } from "./support/axe";
import { closeAfterEach, launchBrowser } from "./support/browser";
import { screenshot } from "./support/screenshots";
import { startServer } from "./support/server";
import { type SignedInOptions, savePreferences, signedInPage, watchPreferences } from "./support/signed-in";

/** exchanges in the long session: 240 messages, the newest page (50) and two earlier pages (100, 90) */
const EXCHANGES = 120;

let app: TestApp;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  app = await startServer({ mail: "outbox" });
  [browser, longSessionUser] = await Promise.all([launchBrowser(), seedLongSession()]);
}, 120_000);
closeAfterEach(contexts);
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const question = (i: number) => `Spørgsmål nr. ${i}: hvordan håndterer vi sag ${i}?`;
const answerText = (i: number) =>
  `Svar nr. ${i}. ${"Sagen behandles efter de almindelige regler, og fristen regnes fra modtagelsen. ".repeat(1 + (i % 4))}`;

/** The file's user, whose only session holds EXCHANGES questions with their answers (stored directly, once). */
let longSessionUser: string;

async function seedLongSession(): Promise<string> {
  const { token } = await createVerifiedUser(app);
  const me = await gql(app, "{ me { id } }", {}, token);
  const created = await gql(
    app,
    `mutation { createSession(title: "Lang samtale") { sessionId } }`,
    {},
    token,
  );
  const sessionId = created.data.createSession.sessionId as string;
  const userId = new mongoose.Types.ObjectId(me.data.me.id as string);
  const t0 = Date.now() - EXCHANGES * 60_000;
  const docs: Array<Record<string, unknown>> = [];
  let parent: mongoose.Types.ObjectId | null = null;
  for (let i = 0; i < EXCHANGES; i++) {
    const q = new mongoose.Types.ObjectId();
    const a = new mongoose.Types.ObjectId();
    const at = t0 + i * 60_000;
    docs.push(
      {
        _id: q,
        userId,
        sessionId,
        role: "user",
        content: question(i),
        timestamp: new Date(at),
        parentId: parent,
      },
      {
        _id: a,
        userId,
        sessionId,
        role: "assistant",
        content: answerText(i),
        timestamp: new Date(at + 1_000),
        parentId: q,
        replyTo: q,
        status: "complete",
        mode: "retrieval",
      },
    );
    parent = a;
  }
  const db = mongoose.connection;
  await db.collection("chat_messages").insertMany(docs);
  await db
    .collection("chat_sessions")
    .updateOne({ sessionId }, { $set: { activeLeafId: parent, hasMessages: true, lastUpdated: new Date() } });
  return token;
}

/**
 * The long session in a fresh context in the given mode (the tests only read it), at its newest page;
 * `preferencesPushed`: the page is to follow preferences saved on the server (its subscription watched).
 */
async function withLongSession(opts: SignedInOptions = {}, preferencesPushed = false): Promise<Page> {
  const { page, context } = await signedInPage(app, browser, { ...opts, token: longSessionUser });
  contexts.push(context);
  if (preferencesPushed) watchPreferences(page);
  await page.goto("/");
  await page
    .getByTestId("user-message")
    .filter({ hasText: question(EXCHANGES - 1) })
    // 240 messages on a fresh page: on a slow, loaded CI machine this first open can take longer than 10 s
    .waitFor({ timeout: 30_000 });
  return page;
}

/**
 * The screenshots and axe checks of a long session in one mode: its newest page, then (with the earlier page
 * held by the caller and the list scrolled to the top) the button saying that earlier messages are loading.
 */
async function newestPageChecked(page: Page, name: string): Promise<void> {
  await screenshot(page, `${name}-newest`);
  await expectAccessible(page, `a long session's newest page (${name})`);
}
async function loadingChecked(page: Page, name: string, loading: string): Promise<void> {
  await page.getByTestId("load-earlier").filter({ hasText: loading }).waitFor();
  await page.waitForTimeout(200);
  await screenshot(page, name);
  await expectAccessible(page, `a long session loading earlier messages (${name})`);
}

const list = (page: Page) => page.getByTestId("message-list");

/**
 * Scrolls the list from the top down to the newest message in steps of 0.8 of its view, in the page itself (no
 * round trip to the test per step), and gives the numbers of the rows rendered at each place (virtualized: those
 * in and near the view), in screen order, read once they have settled: the same rows at the same places two
 * frames running.
 */
async function rowsFromTopToBottom(page: Page, newest: number): Promise<number[][]> {
  return list(page).evaluate(async (el, newest) => {
    const frame = () => new Promise<void>((done) => requestAnimationFrame(() => done()));
    const rows = () =>
      [...el.querySelectorAll("[data-index]")]
        .map((row) => ({
          top: row.getBoundingClientRect().top,
          n: Number(/(?:Spørgsmål|Svar) nr\. (\d+)/.exec(row.textContent ?? "")?.[1] ?? -1),
        }))
        .sort((x, y) => x.top - y.top);
    const settled = async () => {
      await new Promise((done) => setTimeout(done, 30));
      let before = "";
      for (let frames = 0; frames < 120; frames++) {
        await frame();
        const now = JSON.stringify(rows());
        if (now === before) return;
        before = now;
      }
    };
    const places: number[][] = [];
    for (let step = 0; step < 200; step++) {
      await settled();
      places.push(rows().map((row) => row.n));
      const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 2;
      if (atBottom && places.some((shown) => shown.includes(newest))) break;
      el.scrollTop += el.clientHeight * 0.8;
    }
    return places;
  }, newest);
}

/** The row of a question: its distance from the top of the list's view. */
async function topOf(page: Page, i: number): Promise<number> {
  const row = page.getByTestId("user-message").filter({ hasText: question(i) });
  const [box, view] = await Promise.all([row.boundingBox(), list(page).boundingBox()]);
  if (!box || !view) throw new Error(`question ${i} is not shown`);
  return box.y - view.y;
}

const scrollToTop = (page: Page) =>
  list(page).evaluate((el) => {
    el.scrollTop = 0;
  });

/** The list scrolled to its end, the newest question in view (the rows above measured as they came into view). */
async function scrollToNewest(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const el = document.querySelector('[data-testid="message-list"]');
    if (!el) return false;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < 2) return true;
    el.scrollTop = el.scrollHeight;
    return false;
  });
  await page
    .getByTestId("user-message")
    .filter({ hasText: question(EXCHANGES - 1) })
    .waitFor();
}

describe("web: a long chat session", () => {
  it("should open at the newest page and load earlier pages on scrolling up, keeping the reader's place", async () => {
    const page = await withLongSession();
    // the newest message is in view, the earliest ones are not loaded
    expect(await list(page).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(
      80,
    );
    await page.getByTestId("load-earlier").waitFor({ state: "attached" });
    await newestPageChecked(page, "chat-long-session-desktop");

    // hold the earlier page back until the place before it arrives is measured (and the loading state seen)
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => {
      release = r;
    });
    await page.route("**/graphql", async (route) => {
      if (route.request().postData()?.includes('"before"')) await held;
      await route.continue();
    });
    await scrollToTop(page);
    // the oldest loaded message is question 95 (the page of 50 starts at message 190)
    const first = page.getByTestId("user-message").filter({ hasText: question(95) });
    await first.waitFor();
    await loadingChecked(page, "chat-long-session-desktop", "Henter tidligere beskeder…");
    const before = await topOf(page, 95);
    release();
    await page.getByTestId("load-earlier").filter({ hasText: "Vis tidligere beskeder" }).waitFor();
    await page.waitForTimeout(300); // rows above measured: the virtualizer keeps the place
    expect(Math.abs((await topOf(page, 95)) - before)).toBeLessThanOrEqual(2);
    await page.unroute("**/graphql");

    // on to the first message: the button goes once it is loaded
    for (let pages = 0; pages < 5; pages++) {
      await scrollToTop(page);
      // the page is in (the button is idle again) or it was the last (the button is gone)
      await page.waitForFunction(() => {
        const button = document.querySelector<HTMLButtonElement>('[data-testid="load-earlier"]');
        return !button?.disabled;
      });
      if ((await page.getByTestId("load-earlier").count()) === 0) break;
    }
    await scrollToTop(page);
    await page
      .getByTestId("user-message")
      .filter({ hasText: question(0) })
      .waitFor();
    expect(await page.getByTestId("load-earlier").count()).toBe(0);
    await screenshot(page, "chat-long-session-top-desktop");

    // every message once, in order, from the top down to the newest: the rows rendered at each place are
    // consecutive (a question and its answer share a number: 0 0 1 1 2 …), and together they are all
    const places = await rowsFromTopToBottom(page, EXCHANGES - 1);
    for (const rows of places) {
      const steps = rows.slice(1).map((n, k) => n - (rows[k] as number));
      expect(
        steps.filter((d) => d !== 0 && d !== 1),
        `rows ${rows.join(" ")}`,
      ).toEqual([]);
    }
    expect([...new Set(places.flat())].sort((x, y) => x - y)).toEqual(
      Array.from({ length: EXCHANGES }, (_, i) => i),
    );
  }, 180_000); // a walk over 240 messages: past 90 s with the machine at load 20 (old code too, 2026-11-29)

  // (desktop, light, Danish: the test above, at the same two states)
  it("should show that earlier messages are loading at the top of a long session (390 px, dark, English)", async () => {
    // one page for the three modes: the session is opened once, at 390 px; the width then follows the viewport (the
    // app's breakpoints are media queries), the theme and language the preferences saved on the server (pushed to
    // the open page, as when they are saved in another tab). The earlier page stays held: its loading state is
    // the same in every mode.
    const page = await withLongSession({ width: 390 }, true);
    const modes: Array<[string, { theme: "light" | "dark"; language: "da" | "en" }, string]> = [
      ["chat-long-session-mobile", { theme: "light", language: "da" }, "Henter tidligere beskeder…"],
      ["chat-long-session-dark", { theme: "dark", language: "da" }, "Henter tidligere beskeder…"],
      ["chat-long-session-en", { theme: "light", language: "en" }, "Loading earlier messages…"],
    ];
    // the earlier page is held for good (the context closes after the test): the top of the newest page shows it
    // loading
    await page.route("**/graphql", async (route) => {
      if (!route.request().postData()?.includes('"before"')) await route.continue();
    });
    for (const [name, prefs, loading] of modes) {
      if (name !== "chat-long-session-mobile") {
        await page.setViewportSize({ width: 1280, height: 860 });
        await savePreferences(app, longSessionUser, page, prefs);
        await scrollToNewest(page);
      }
      await newestPageChecked(page, name);
      await scrollToTop(page);
      await loadingChecked(page, name, loading);
    }
  }, 240_000); // a long session, checked in three modes: past 90 s on a slow, loaded CI machine
});
