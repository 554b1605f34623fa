/**
 * The screenshot walk: every screen of the app as a signed-out visitor, as staff and as the administrator, at
 * desktop (1280 px), narrow (390 px), and dark in English. Each screen is saved as
 * artifacts/screenshots/tour-<variant>-<screen>.png and must hold up: no horizontal overflow, no untranslated key,
 * no "undefined" / "NaN" / "[object Object]", no Danish interface words in English, and axe clean (every screen
 * of the desktop and dark walks; the phone layouts of the narrow walk).
 *
 * One walk per test file (tour-desktop, tour-narrow, tour-dark-english.test.ts), so the three walks run on
 * different workers at the same time instead of one after the other in one file.
 *
 * The server is real (embedded store, retrieval-only answers: no language model), with a fake Notion workspace
 * (support/notion.ts); the staff user's data (sessions, answers with and without sources, a long session, bookmarks,
 * a share) is made through the API first, so every variant sees the same screens. The administrator has no
 * bookmarks: its walk shows the empty bookmark list.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Q, sampleArticleId } from "../../../api/src/chat/chat.test-helpers";
import type { TestApp } from "../../../api/src/testing/app";
import { createVerifiedUser, gql, loginAdmin } from "../../../api/src/testing/client";
import { da } from "../../src/i18n/da";
import { expectAccessible } from "./axe";
import { closeAfterEach, launchBrowser, newContext } from "./browser";
import { type NotionWorkspace, startNotionWorkspace } from "./notion";
import { screenshot } from "./screenshots";

export interface Variant {
  name: string;
  width: number;
  theme: "light" | "dark";
  language: "da" | "en";
  /** the screens axe checks: every one, or those whose markup at this width no wider walk has (axe costs
   * 1–2 s a screen) */
  axe: "all" | readonly string[];
}

export const VARIANTS = {
  desktop: { name: "desktop", width: 1280, theme: "light", language: "da", axe: "all" },
  // at 390 px: the screens whose layout changes most on a phone (drawer, stacked cards, the chat)
  narrow: {
    name: "narrow",
    width: 390,
    theme: "light",
    language: "da",
    axe: [
      "home",
      "chat-sources",
      "chat-sidebar",
      "knowledge",
      "knowledge-category",
      "knowledge-article",
      "search-many",
      "bookmarks",
      "profile",
      "admin-notion",
    ],
  },
  // dark and English in one walk (each screen's checks differ by theme or by language, not by both)
  darkEnglish: { name: "dark-english", width: 1280, theme: "dark", language: "en", axe: "all" },
} satisfies Record<string, Variant>;

/** 60 characters: the longest title a session may have */
const LONG_TITLE = "Aktindsigt, partshøring og klagefrister i én indviklet sag x";
const SOURCED = "Hvad er klagefristen for en afgørelse?";
const NOT_COVERED = "Hvordan bager man en æblekage med kanel?";
const LONG_QUESTIONS = [
  "Hvordan refunderes udlæg?",
  "Hvem attesterer betalinger?",
  "Hvad gør jeg ved et databrud?",
  "Hvornår skal der partshøres?",
  "Hvordan journaliseres en sag?",
  "Hvad er reglerne for aktindsigt?",
];

/** The top-level parts of the UI's keys ("chat", "nav", ...): a key shown as text would start with one of them. */
const KEY_PREFIXES = [...new Set(Object.keys(da).map((k) => k.split(".")[0]))];
const KEY_PATTERN = new RegExp(
  `(?:^|\\s)(?:${KEY_PREFIXES.join("|")})\\.[a-zA-Z]+(?:\\.[a-zA-Z]+)*(?=\\s|$)`,
);
/** Interface words that only Danish has; in English mode they must not appear in the app's own chrome. */
const DANISH_CHROME =
  /\b(Indlæser|Søg|Gem|Annuller|Tilbage|Slet|Luk|Ingen|Hjem|Ny chat|Log ud|Samtaler|Bogmærker)\b/;

let notion: NotionWorkspace;
export let app: TestApp;
let browser: Browser;
export let staffToken: string;
let adminToken: string;
let shareUrl: string;
let articleId: string;
const contexts: BrowserContext[] = [];

async function must<T>(query: string, variables: Record<string, unknown>, token: string): Promise<T> {
  const res = await gql<T>(app, query, variables, token);
  expect(res.errors, query).toBeUndefined();
  return res.data as T;
}

/** Asks and waits for the answer; the answer's id. */
async function ask(sessionId: string, content: string): Promise<string> {
  const sent = await must<{ sendMessage: { assistantMessage: { id: string } } }>(
    Q.send,
    { sessionId, content },
    staffToken,
  );
  await app.services.chat.whenIdle();
  return sent.sendMessage.assistantMessage.id;
}

/** A rating on an answer: the statistics tab shows the feedback and its comments. */
async function rate(messageId: string, rating: "up" | "down", comment: string): Promise<void> {
  await must(Q.feedback, { messageId, rating, comment }, staffToken);
}

/** The server, the browser and the data every walk shows, for the calling test file. */
function setUp(): void {
  beforeAll(startTour, 240_000);
  closeAfterEach(contexts);
  afterAll(async () => {
    await browser?.close();
    await app?.services.chat.whenIdle();
    await notion?.close();
  });
}

async function startTour(): Promise<void> {
  staff = undefined;
  [notion, browser] = await Promise.all([startNotionWorkspace(), launchBrowser()]);
  app = notion.app;
  staffToken = (await createVerifiedUser(app, { name: "Karen Holm Jensen" })).token;
  adminToken = await loginAdmin(app);

  // many sessions, one with a long title, one still untitled ('Ny chat': "New chat" in English)
  await must(Q.create, {}, staffToken);
  for (let i = 1; i <= 18; i++)
    await must(Q.create, { title: `Samtale nummer ${i} om sagsbehandling` }, staffToken);
  await must(Q.create, { title: LONG_TITLE }, staffToken);
  // a long session
  const long = await must<{ createSession: { sessionId: string } }>(
    Q.create,
    { title: "Lang samtale" },
    staffToken,
  );
  for (const q of LONG_QUESTIONS) await ask(long.createSession.sessionId, q);
  // an answer that is not covered
  const gap = await must<{ createSession: { sessionId: string } }>(
    Q.create,
    { title: "Æblekage" },
    staffToken,
  );
  // the comment is shown as text, not markup
  await rate(await ask(gap.createSession.sessionId, NOT_COVERED), "down", "Mangler <b>kilde</b>");
  // an answer with sources, shared
  const sourced = await must<{ createSession: { sessionId: string } }>(
    Q.create,
    { title: "Klagefrist" },
    staffToken,
  );
  await rate(await ask(sourced.createSession.sessionId, SOURCED), "up", "Præcist svar");
  const share = await must<{ shareChatSession: { url: string } }>(
    "mutation($s: ID!) { shareChatSession(sessionId: $s) { url } }",
    { s: sourced.createSession.sessionId },
    staffToken,
  );
  shareUrl = new URL(share.shareChatSession.url).pathname;

  articleId = await sampleArticleId(app, "sagsbehandling/klager-over-afgoerelser.md");
  for (const file of [
    "sagsbehandling/klager-over-afgoerelser.md",
    "oekonomi/udlaeg-og-refusion.md",
    "oekonomi/attestation-og-godkendelse-af-betalinger.md",
  ])
    await must(
      "mutation($a: ID!) { addBookmark(articleId: $a) { __typename } }",
      {
        a: await sampleArticleId(app, file),
      },
      staffToken,
    );

  // the admin: Notion connected with two databases selected
  await must(
    "mutation($t: String!) { connectNotion(token: $t) { connected } }",
    { t: notion.token },
    adminToken,
  );
  const dbs = await must<{ notionDatabases: Array<{ id: string; title: string }> }>(
    "{ notionDatabases { id title } }",
    {},
    adminToken,
  );
  const selected = dbs.notionDatabases.filter((d) => notion.selected.some((s) => s.title === d.title));
  await must(
    "mutation($s: [ID!]!) { saveNotionConfig(selectedDatabases: $s) { totalPages } }",
    { s: selected.map((d) => d.id) },
    adminToken,
  );
}

/**
 * A page for `variant` in `browser` on `app`, signed in with `token` (or signed out), the variant's preferences
 * saved on the server first; with its context, which the caller closes.
 */
export async function openVariant(
  app: TestApp,
  browser: Browser,
  variant: Variant,
  token?: string,
): Promise<{ page: Page; context: BrowserContext }> {
  if (token) {
    const prefs = await gql(
      app,
      "mutation($i: PreferencesInput!) { updatePreferences(input: $i) { theme } }",
      { i: { theme: variant.theme, language: variant.language } },
      token,
    );
    expect(prefs.errors).toBeUndefined();
  }
  const context = await newContext(browser, {
    baseURL: app.url,
    width: variant.width,
    height: variant.width < 600 ? 844 : 860,
    theme: variant.theme,
    language: variant.language,
  });
  context.setDefaultTimeout(20_000);
  if (token) await context.addInitScript((t: string) => localStorage.setItem("auth_token", t), token);
  return { page: await context.newPage(), context };
}

/** A page of the walk's own server and browser for `variant` (openVariant), closed with the walk. */
export async function open(variant: Variant, token?: string): Promise<Page> {
  const { page, context } = await openVariant(app, browser, variant, token);
  contexts.push(context);
  return page;
}

/**
 * The staff user's page for the chat and the knowledge parts of a walk: one context and one load of the app for
 * both (a context's first load of the app costs its renderer ~2.4 s, and axe is injected once per document); the
 * knowledge part closes it.
 */
let staff: Page | undefined;
async function staffPage(variant: Variant): Promise<Page> {
  if (!staff || staff.isClosed()) staff = (await openVariant(app, browser, variant, staffToken)).page;
  return staff;
}

/** What every screen must hold to; the screenshot is taken first so a failure can be looked at. */
export async function inspect(page: Page, variant: Variant, screen: string): Promise<void> {
  // no spinner or skeleton still showing
  await page
    // (a determinate bar, aria-valuenow, is a figure, not loading)
    .locator('[role="progressbar"]:not([aria-valuenow]), .MuiSkeleton-root')
    .first()
    .waitFor({ state: "detached", timeout: 10_000 })
    .catch(() => undefined);
  await screenshot(page, `tour-${variant.name}-${screen}`);
  const label = `${screen} (${variant.name})`;
  const facts = await page.evaluate(() => {
    const doc = document.documentElement;
    const wide = [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.right > doc.clientWidth + 1 && getComputedStyle(el).position !== "fixed";
      })
      .filter((el) => !el.closest("[data-overflow-ok], pre, table, .MuiTabs-scroller"))
      .slice(0, 3)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 2).join(".")}`);
    // a box that scrolls sideways inside the page (a column widened by its content)
    const sideways = [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((el) => {
        const style = getComputedStyle(el);
        return (
          /auto|scroll/.test(style.overflowX) &&
          el.scrollWidth > el.clientWidth + 1 &&
          !el.closest("[data-overflow-ok], pre, table, .MuiTabs-scroller")
        );
      })
      .slice(0, 3)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 2).join(".")}`);
    // text cut off without an ellipsis and without its whole text in a tooltip (title)
    const clipped = [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((el) => {
        if (!el.firstChild || el.children.length > 0 || el.scrollWidth <= el.clientWidth + 1) return false;
        const style = getComputedStyle(el);
        if (style.display === "inline" || !el.textContent?.trim()) return false;
        // a label for screen readers only (1 px, clipped) is meant to be cut
        if (el.clientWidth <= 1 || style.clip.startsWith("rect(0")) return false;
        if (el.closest("[data-overflow-ok], pre, table, input, textarea, .MuiTabs-scroller")) return false;
        // text wider than its own box: it spills over the box's edge (or is cut there)
        if (style.overflowX === "visible") return true;
        return style.textOverflow !== "ellipsis" || !el.closest("[title], [aria-label]");
      })
      .slice(0, 3)
      .map((el) => `"${el.textContent?.slice(0, 40)}"`);
    // an empty field's placeholder that does not fit must end in an ellipsis
    const canvas = document.createElement("canvas").getContext("2d") as CanvasRenderingContext2D;
    const cutPlaceholders = [...document.querySelectorAll<HTMLInputElement>("input[placeholder]")]
      .filter((el) => {
        if (el.value || el.type === "hidden" || el.clientWidth === 0) return false;
        const style = getComputedStyle(el);
        canvas.font = style.font;
        const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return canvas.measureText(el.placeholder).width > room + 1 && style.textOverflow !== "ellipsis";
      })
      .map((el) => `"${el.placeholder}"`);
    return {
      cutPlaceholders,
      sideways,
      clipped,
      overflow: doc.scrollWidth - doc.clientWidth,
      wide,
      text: document.body.innerText,
      title: document.title,
    };
  });
  expect(facts.overflow, `horizontal overflow on ${label}: ${facts.wide.join(", ")}`).toBeLessThanOrEqual(0);
  expect(facts.sideways, `a box scrolls sideways on ${label}`).toEqual([]);
  expect(
    facts.clipped,
    `text wider than its box (spilling, or cut without ellipsis + tooltip) on ${label}`,
  ).toEqual([]);
  expect(facts.cutPlaceholders, `placeholder cut off on ${label}`).toEqual([]);
  expect(facts.text, `broken value on ${label}`).not.toMatch(/\bundefined\b|\bNaN\b|\[object Object\]/);
  expect(facts.text.match(KEY_PATTERN)?.[0] ?? null, `untranslated key on ${label}`).toBeNull();
  if (variant.language === "en") {
    // the app's chrome: everything outside the knowledge content, answers and user-written titles
    // the app's own words: controls, labels, tabs, placeholders and accessible names (not the Danish content,
    // the answers or the titles users wrote)
    const chrome = await page.evaluate(() => {
      const content =
        "[data-testid=article-content], [data-testid=assistant-message], [data-testid=user-message], [data-testid=session-item], article:not([aria-labelledby=article-title])";
      const texts: string[] = [];
      for (const el of document.querySelectorAll<HTMLElement>(
        "button, a, [role=tab], [role=menuitem], label, legend, th, header, input, textarea, [aria-label]",
      )) {
        if (el.closest(content)) continue;
        if (!el.matches("input, textarea, [aria-label]") || el.matches("button, a")) texts.push(el.innerText);
        for (const attr of ["placeholder", "aria-label", "title"]) texts.push(el.getAttribute(attr) ?? "");
      }
      return texts.join("\n");
    });
    expect(chrome.match(DANISH_CHROME)?.[0] ?? null, `Danish interface text on ${label}`).toBeNull();
  }
  if (variant.axe === "all" || variant.axe.includes(screen)) await expectAccessible(page, label);
}

/** Goes to `path` — loading the app, or "in-app" through its router (goInApp) — until `ready` shows. */
async function goTo(page: Page, path: string, ready: string, how: "load" | "in-app" = "load"): Promise<void> {
  if (how === "in-app") return goInApp(page, path, ready);
  await page.goto(path);
  await page.locator(ready).first().waitFor({ timeout: 20_000 });
}

/** A visit that goes to a screen (goTo) and then looks at it with `look` (inspect, or a caller's own that collects). */
export function visitWith(look: (page: Page, variant: Variant, screen: string) => Promise<void>) {
  return async (
    page: Page,
    variant: Variant,
    screen: string,
    path: string,
    ready: string,
    how: "load" | "in-app" = "load",
  ): Promise<void> => {
    await goTo(page, path, ready, how);
    await look(page, variant, screen);
  };
}

/** goTo, then inspect the screen. */
const visit = visitWith(inspect);

/**
 * Goes to `path` through the app's router in the app already loaded in `page` (as a link does), not by loading
 * the app again: a load costs the renderer ~1.6 s, and users reach these screens through the app's links.
 * The view starts at the top with nothing focused, as after a load. A screen whose view stays the same (another
 * query, another category) and the first screen of a page are loaded (visit).
 */
export async function goInApp(page: Page, path: string, ready: string): Promise<void> {
  await page.evaluate(
    ([to, selector]) => {
      // the router keeps the old screen up until the new one is ready (a transition): mark what matches now
      for (const el of document.querySelectorAll(selector)) el.setAttribute("data-walk-left", "");
      (document.activeElement as HTMLElement | null)?.blur();
      history.pushState(null, "", to);
      dispatchEvent(new PopStateEvent("popstate"));
      scrollTo(0, 0);
    },
    [path, ready] as const,
  );
  await page.locator(`:is(${ready}):not([data-walk-left])`).first().waitFor({ timeout: 20_000 });
}

export async function openSession(page: Page, variant: Variant, title: string): Promise<void> {
  if (variant.width < 600)
    await page.getByRole("button", { name: /^(Vis samtaler|Show conversations)$/ }).click();
  await page.getByTestId("session-item").filter({ hasText: title }).first().click();
  // the drawer has closed (no half-faded backdrop in the picture)
  if (variant.width < 600) await page.locator(".MuiBackdrop-root").first().waitFor({ state: "hidden" });
}

/** Per part of a walk: ~40 s on an idle 2-core machine, 3–4 times that when other suites share it. */
const TIMEOUT = 240_000;

/** The walk of `variant` as the calling file's tests (one walk per file: signed out, chat, knowledge, admin). */
export function walkEveryScreen(variant: Variant): void {
  setUp();
  describe("web: a walk over every screen", () => {
    it(
      `should show every signed-out screen without overflow, broken text or axe violations (${variant.name})`,
      async () => {
        const visitor = await open(variant);
        // one load, then through the app's router. The e-mail links' screens (verify-email, reset-password) read
        // their token from the route when they mount (useSearchParams), not from the page's load, so they look the
        // same reached in the app (their loads: email-links.test.ts); each follows another route, so it mounts anew.
        await visit(visitor, variant, "login", "/login", "h1");
        await visit(visitor, variant, "register", "/register", "h1", "in-app");
        await visit(visitor, variant, "verify-email", "/verify-email?token=ugyldig", "h1", "in-app");
        await visit(visitor, variant, "forgot-password", "/forgot-password", "h1", "in-app");
        await visit(visitor, variant, "reset-password", "/reset-password?token=abc", "h1", "in-app");
        await visit(visitor, variant, "terms", "/terms", "h1", "in-app");
        // the links that come without their token
        await visit(visitor, variant, "reset-password-no-token", "/reset-password", "h1", "in-app");
        await visit(visitor, variant, "not-found", "/findes-ikke", "h1", "in-app");
        await visit(visitor, variant, "verify-email-no-token", "/verify-email", "h1", "in-app");
      },
      TIMEOUT,
    );

    it(
      `should show the chat screens without overflow, broken text or axe violations (${variant.name})`,
      async () => {
        const page = await staffPage(variant);
        await visit(page, variant, "home", "/", "[data-testid=chat-input]");
        await openSession(page, variant, "Klagefrist");
        await page.locator("[data-testid=assistant-message] a[data-citation]").first().waitFor();
        await inspect(page, variant, "chat-sources");
        await openSession(page, variant, "Æblekage");
        await page.getByTestId("answer-not-covered").waitFor();
        await inspect(page, variant, "chat-not-covered");
        await openSession(page, variant, "Lang samtale");
        await page
          .getByTestId("user-message")
          .filter({ hasText: LONG_QUESTIONS.at(-1) })
          .waitFor();
        await inspect(page, variant, "chat-long");
        if (variant.width < 600) {
          await page.getByRole("button", { name: /^(Vis samtaler|Show conversations)$/ }).click();
          await page.getByTestId("session-item").first().waitFor();
          await inspect(page, variant, "chat-sidebar");
          await page.keyboard.press("Escape");
          await page.locator(".MuiBackdrop-root").first().waitFor({ state: "hidden" });
        }
      },
      TIMEOUT,
    );

    it(
      `should show the knowledge, share and profile screens without overflow, broken text or axe violations (${variant.name})`,
      async () => {
        // the chat part's page (or a new one, when this part runs alone), closed after this part
        const page = await staffPage(variant);
        contexts.push(page.context());
        const inApp = page.url().startsWith(app.url);
        // the pointer off the chat part's last click (a control under it would show its hover colour)
        await page.mouse.move(0, 0);
        await visit(
          page,
          variant,
          "knowledge",
          "/knowledge",
          "[data-testid=knowledge-overview] h1",
          inApp ? "in-app" : "load",
        );
        await visit(
          page,
          variant,
          "knowledge-category",
          "/knowledge?category=Sagsbehandling",
          "[data-testid=knowledge-category] h1",
          "in-app",
        );
        await visit(
          page,
          variant,
          "knowledge-article",
          `/knowledge?article=${encodeURIComponent(articleId)}`,
          "[data-testid=article-content]",
          "in-app",
        );
        // the title is said once, by the page's h1, not again as the text's first heading
        const articleTitle = await page.getByRole("heading", { level: 1 }).innerText();
        const contentHeadings = await page
          .getByTestId("article-content")
          .getByRole("heading")
          .allInnerTexts();
        expect(contentHeadings).not.toContain(articleTitle);
        await visit(
          page,
          variant,
          "search-many",
          "/knowledge?q=sag",
          "[data-testid=knowledge-result-count]",
          "in-app",
        );
        // loaded: the results of another query would keep their elements (and the field its text)
        await page.goto("/knowledge?q=xyzzyqwerty");
        await page.getByText(/^(Ingen resultater fundet|No results found)$/).waitFor();
        await inspect(page, variant, "search-none");
        await visit(
          page,
          variant,
          "bookmarks",
          "/knowledge?view=bookmarks",
          "[data-testid=knowledge-bookmarks] h1",
          "in-app",
        );
        await visit(page, variant, "share", shareUrl, "[data-testid=assistant-message], h1", "in-app");
        await visit(page, variant, "profile", "/profile", "h1", "in-app");
        // the notifications hint starts under its label's first letter
        const [label, hint] = await Promise.all([
          page.locator("label:has(#prefs-notifications) .MuiFormControlLabel-label").boundingBox(),
          page.locator("#prefs-notifications-help").boundingBox(),
        ]);
        expect(Math.abs((label?.x ?? 0) - (hint?.x ?? -9))).toBeLessThanOrEqual(1);
      },
      TIMEOUT,
    );

    it(
      `should show every screen of the administrator without overflow, broken text or axe violations (${variant.name})`,
      async () => {
        const admin = await open(variant, adminToken);
        // no conversations yet: the empty session list
        await visit(admin, variant, "home-empty", "/", "[data-testid=chat-input]");
        await visit(admin, variant, "admin-users", "/admin", "[data-testid=admin-user-card]", "in-app");
        for (const [tab, name] of [
          ["stats", /^(Statistik|Statistics)$/],
          ["activity", /^(Aktivitet|Activity)$/],
        ] as const) {
          await admin.getByRole("tab", { name }).click();
          await admin.getByTestId(`admin-${tab}`).waitFor();
          if (tab === "stats") {
            await admin.getByTestId("admin-chart-messages").locator("svg").first().waitFor();
            // the charts are drawn in the theme's own primary colour, not the chart library's palette
            const fills = await admin
              .getByTestId("admin-chart-messages")
              .locator("svg [fill]")
              .evaluateAll((els) => els.map((e) => e.getAttribute("fill")?.toLowerCase()));
            expect(fills).toContain(variant.theme === "dark" ? "#8ab4f8" : "#1f4e79");
            // the days under the bars as the reader writes them: "30.10." in Danish, "30/10" in English, whole
            const days = await admin
              .getByTestId("admin-chart-messages")
              .locator(".MuiChartsAxis-directionX .MuiChartsAxis-tickLabel")
              .allTextContents();
            expect(days.length).toBeGreaterThan(0);
            for (const day of days)
              expect(day).toMatch(variant.language === "da" ? /^\d{1,2}\.\d{1,2}\.?$/ : /^\d{2}\/\d{2}$/);
            // the feedback (one up, one down, a comment) and the knowledge gap (the question not covered)
            await admin.getByTestId("admin-feedback").getByText("Mangler <b>kilde</b>").waitFor();
            await admin.getByTestId("admin-gaps").getByRole("listitem").first().waitFor();
          }
          await inspect(admin, variant, `admin-${tab}`);
          if (variant.language === "en") {
            // the log's texts by key in English, none of the stored Danish sentences
            const log = await admin.getByTestId(`admin-${tab}`).innerText();
            if (tab === "activity") expect(log).toContain("Karen Holm Jensen signed in");
            expect(log).not.toMatch(
              /loggede ind|søgte efter|synkroniseret|forbundet|Bruger (startede|sendte)/,
            );
          }
        }
        await goInApp(admin, "/knowledge?view=bookmarks", "[data-testid=knowledge-bookmarks] h1");
        await admin.getByText(/^(Ingen bogmærker endnu|No bookmarks yet)$/).waitFor();
        await inspect(admin, variant, "bookmarks-empty");
        await visit(admin, variant, "admin-notion", "/admin/notion", "h1", "in-app");
        // the last-updated date stays on one line in its tile
        const date = admin.getByTestId("notion-summary-updated").locator("dd");
        const lines = await date.evaluate(
          (el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight),
        );
        expect(lines, `date "${await date.innerText()}" on one line`).toBeLessThan(1.5);
        if (variant.width >= 900) {
          // the header marks the section the page belongs to: /admin/notion is under Admin
          const current = admin
            .getByRole("navigation", { name: /^(Hovednavigation|Main navigation)$/ })
            .locator('[aria-current="page"]');
          expect(await current.allInnerTexts()).toEqual(["Admin"]);
        }
      },
      TIMEOUT,
    );
  });
}
