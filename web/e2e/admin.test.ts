/**
 * The admin panel end to end (issue 14): the real server over the embedded store with seeded conversations, the
 * production web build in headless Chromium. Every tab, light and dark, checked with axe.
 */
import { randomUUID } from "node:crypto";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChatMessageModel, ChatSessionModel, KnowledgeGapModel } from "../../api/src/chat/chat.model";
import type { TestApp } from "../../api/src/testing/app";
import { createVerifiedUser, gql, loginAdmin, rest } from "../../api/src/testing/client";
import { AdminPage } from "./pages/AdminPage";
import { LoginPage } from "./pages/LoginPage";
import { Toast } from "./pages/Toast";
import { launchBrowser, newContext } from "./support/browser";
import { checkScreen } from "./support/checkScreen";
import { screenshot } from "./support/screenshots";
import { startServer } from "./support/server";

type Staff = Awaited<ReturnType<typeof createVerifiedUser>>;

const DAY = 24 * 3600_000;
const SEEDED_MESSAGES = 24;

/** Sessions and messages spread over the last days (two per day, the last with feedback), plus knowledge gaps. */
async function seedConversations(users: Staff[]) {
  const now = Date.now();
  let messages = 0;
  for (const [u, staff] of users.entries()) {
    const userId = staff.user.id;
    for (let day = 0; day < 4; day++) {
      const sessionId = randomUUID();
      const start = new Date(now - (day + u) * DAY - 3600_000);
      await ChatSessionModel.create({
        userId,
        sessionId,
        title: `Samtale ${day}`,
        titled: true,
        hasMessages: true,
        createdAt: start,
        lastUpdated: new Date(start.getTime() + 10 * 60_000),
      });
      const question = await ChatMessageModel.create({
        userId,
        sessionId,
        role: "user",
        content: "Hvad er fristen for klager?",
        timestamp: start,
      });
      await ChatMessageModel.create({
        userId,
        sessionId,
        role: "assistant",
        content: "Fristen er 4 uger [1].",
        timestamp: new Date(start.getTime() + 10 * 60_000),
        replyTo: question._id,
        status: "complete",
        feedback:
          day === 0
            ? {
                rating: u === 0 ? "down" : "up",
                comment: u === 0 ? "Mangler <b>kilde</b>" : "Præcist svar",
                at: start,
              }
            : null,
      });
      messages += 2;
    }
  }
  for (const q of [
    "Hvordan søger man om orlov?",
    "Hvordan søges der om orlov",
    "Hvem godkender rejseudgifter?",
  ]) {
    await KnowledgeGapModel.create({
      question: q,
      userId: users[0].user.id,
      sessionId: randomUUID(),
      timestamp: new Date(now - 2 * DAY),
    });
  }
  return messages;
}

describe("web: admin panel", () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let admin: AdminPage;
  let toast: Toast;
  let adminToken: string;
  let staff: Staff[];
  let topCategory: string;

  const setPrefs = async (input: { theme?: "light" | "dark"; language?: "da" | "en" }) => {
    const res = await gql(
      app,
      "mutation P($input: PreferencesInput!) { updatePreferences(input: $input) { theme } }",
      { input },
      adminToken,
    );
    expect(res.errors).toBeUndefined();
  };

  const openAs = async (token: string, width = 1280, height = 900) => {
    const ctx = await newContext(browser, { baseURL: app.url, width, height });
    await ctx.addInitScript((value: string) => localStorage.setItem("auth_token", value), token);
    return ctx.newPage();
  };

  beforeAll(async () => {
    [app, browser] = await Promise.all([startServer(), launchBrowser()]);
    adminToken = await loginAdmin(app);
    staff = [];
    for (let i = 0; i < 4; i++)
      staff.push(await createVerifiedUser(app, { name: `Ansat Nummer${i} Hansen` }));
    expect(await seedConversations([staff[0], staff[1], staff[3]])).toBe(SEEDED_MESSAGES);
    // article opens count as category views ('Populære kategorier'): 3 in one category, 1 in another
    const articles: Array<{ id: string; category: string }> = (
      await gql(app, "{ knowledgeArticles { id category } }", {}, staff[0].token)
    ).data.knowledgeArticles;
    const other = articles.find((a) => a.category !== articles[0].category)!;
    for (const id of [articles[0].id, articles[0].id, articles[0].id, other.id]) {
      const res = await gql(
        app,
        "query A($id: ID!) { knowledgeArticle(id: $id) { id } }",
        { id },
        staff[0].token,
      );
      expect(res.errors).toBeUndefined();
    }
    topCategory = articles[0].category;
    page = await openAs(adminToken);
    admin = new AdminPage(page);
    toast = new Toast(page);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it("should send a normal user to /", async () => {
    const p = await openAs(staff[3].token);
    await p.goto("/admin?tab=stats");
    await p.waitForURL((url) => url.pathname === "/");
    await p.getByTestId("chat-input").waitFor();
    expect(await p.getByRole("heading", { name: "Admin Panel" }).count()).toBe(0);
    // and the server refuses the admin queries anyway
    const res = await gql(app, "{ adminUsers { id } }", {}, staff[3].token);
    expect(res.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    await p.context().close();
  });

  it("should list and search users with the count badge and the empty state", async () => {
    await admin.goto();
    await expect(admin.tab("users").getAttribute("aria-selected")).resolves.toBe("true");
    const total = (await gql(app, "{ adminUsers { id } }", {}, adminToken)).data.adminUsers.length;
    await admin
      .userCount()
      .filter({ hasText: `${total} brugere` })
      .waitFor();
    expect(await admin.userCards().count()).toBe(total);

    const first = staff[0].input;
    const card = admin.userCard(first.email);
    await expect(card.innerText()).resolves.toMatch(/Aktiv/);
    await expect(card.innerText()).resolves.toMatch(/Oprettet\s*(lige nu|for \d+ \w+ siden)/);
    // the seeded user never used the UI login after verification → has a last login; the fresh card shows counts
    await expect(card.innerText()).resolves.toMatch(/Samtaler\s*4/);
    const adminCard = admin.userCard(app.admin.email);
    await expect(adminCard.innerText()).resolves.toMatch(/Admin/);

    await admin.userSearch().fill(first.username.toUpperCase());
    await admin.userCount().filter({ hasText: "1 brugere" }).waitFor();
    await expect(admin.userCards().count()).resolves.toBe(1);
    await admin.userSearch().fill("findes-ikke-xyz");
    await admin.usersEmpty().waitFor();
    await expect(admin.usersEmpty().innerText()).resolves.toMatch(
      /Ingen brugere fundet\s+Ingen brugere matcher din søgning/,
    );
    await admin.userSearch().fill("");
    await admin
      .userCount()
      .filter({ hasText: `${total} brugere` })
      .waitFor();
  });

  it("should reset a password with the minimum rule, and the user can sign in with it", async () => {
    const target = staff[1].input;
    await admin.resetButton(admin.userCard(target.email)).click();
    await admin.dialog().getByRole("heading", { name: "Nulstil password" }).waitFor();
    await expect(admin.resetConfirm().isDisabled()).resolves.toBe(true);
    expect(await admin.dialog().getByText("Password skal være mindst 6 tegn").count()).toBe(0);
    await admin.resetField().fill("abc");
    await admin.dialog().getByText("Password skal være mindst 6 tegn").waitFor();
    await expect(admin.resetConfirm().isDisabled()).resolves.toBe(true);
    await checkScreen(page, "admin-reset-dialog", "light");
    await admin.resetField().fill("nyt-kodeord-42");
    await expect(admin.resetConfirm().isDisabled()).resolves.toBe(false);
    await admin.resetConfirm().click();
    await expect(toast.waitForTitle("Password ændret")).resolves.toBe(
      "Password ændret Brugerens password er blevet opdateret",
    );
    await admin.dialog().waitFor({ state: "hidden" });

    // the old password no longer works; the new one does, in the browser
    const old = await rest(app, "POST", "/api/auth/login", {
      body: { email: target.email, password: target.password },
    });
    expect(old.status).toBe(401);
    const p = await (await newContext(browser, { baseURL: app.url })).newPage();
    const login = await new LoginPage(p).goto();
    await login.login(target.email, "nyt-kodeord-42");
    await p.waitForURL((url) => url.pathname === "/");
    await p.getByTestId("chat-input").waitFor();
    await p.context().close();

    // reopening starts with an empty field
    await admin.resetButton(admin.userCard(target.email)).click();
    await expect(admin.resetField().inputValue()).resolves.toBe("");
    await admin.dialog().getByRole("button", { name: "Annuller" }).click();
    await admin.dialog().waitFor({ state: "hidden" });
  });

  it("should delete a user, listing what goes, and the user's token is refused after", async () => {
    const victim = staff[2];
    const before = await gql(app, "{ myPreferences { language } }", {}, victim.token);
    expect(before.errors).toBeUndefined();

    await admin.deleteButton(admin.userCard(victim.input.email)).click();
    await admin.dialog().getByRole("heading", { name: "Slet bruger" }).waitFor();
    const text = await admin.dialog().innerText();
    for (const what of ["Alle samtaler", "Alle bogmærker", "Alle præferencer", "Brugerkontoen"]) {
      expect(text).toContain(what);
    }
    await checkScreen(page, "admin-delete-dialog", "light");
    await admin.deleteConfirm().click();
    await expect(toast.waitForTitle("Bruger slettet")).resolves.toBe(
      "Bruger slettet Brugeren er blevet fjernet fra systemet",
    );
    await admin.dialog().waitFor({ state: "hidden" });
    await admin.userCard(victim.input.email).waitFor({ state: "detached" });

    const after = await gql(app, "{ myPreferences { language } }", {}, victim.token);
    expect(after.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });

  it("should refuse to delete the protected admin with the toast", async () => {
    // the users tab the last test left (no load: nothing here depends on a fresh one)
    await admin.openTab("users");
    const card = admin.userCard(app.admin.email);
    await expect(admin.deleteButton(card).getAttribute("aria-disabled")).resolves.toBe("true");
    // aria-disabled (not disabled): it looks off but stays focusable and answers with the reason
    await admin.deleteButton(card).focus();
    await page.keyboard.press("Enter");
    await expect(toast.waitForTitle("Kan ikke slette admin")).resolves.toBe(
      "Kan ikke slette admin Admin-brugeren kan ikke slettes",
    );
    expect(await admin.dialog().count()).toBe(0);
  });

  it("should show eight skeletons, then the statistics, categories, activity, charts, feedback and gaps", async () => {
    // hold the stats answer back so the loading state can be seen
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/graphql", async (route) => {
      if (route.request().postData()?.includes("query AdminStats")) await held;
      await route.continue();
    });
    await admin.openTab("stats");
    expect(new URL(page.url()).searchParams.get("tab")).toBe("stats");
    await admin.statSkeletons().first().waitFor();
    expect(await admin.statSkeletons().count()).toBe(8);
    // the placeholders are laid out as the figures they stand for: as many in the first row
    const firstRow = (cards: Locator) =>
      cards.evaluateAll((els) => {
        const tops = els.map((e) => Math.round(e.getBoundingClientRect().top));
        return tops.filter((top) => top === tops[0]).length;
      });
    const skeletonsPerRow = await firstRow(admin.statSkeletons());
    await screenshot(page, "admin-stats-skeleton-light");
    // at 390 px too: two a row, as the figures are laid out there
    const viewport = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await firstRow(admin.statSkeletons())).toBe(2);
    await screenshot(page, "admin-stats-skeleton-390-light");
    if (viewport) await page.setViewportSize(viewport);
    release();
    await admin.statCards().first().waitFor();
    await page.unroute("**/graphql");

    expect(await admin.statCards().count()).toBe(6);
    expect(await firstRow(admin.statCards())).toBe(skeletonsPerRow);
    const stats = (
      await gql(app, "{ adminStats { totalUsers totalMessages avgSessionDuration } }", {}, adminToken)
    ).data.adminStats;
    await expect(admin.statCard("Samlede brugere").innerText()).resolves.toContain(String(stats.totalUsers));
    await expect(admin.statCard("Samlede beskeder").innerText()).resolves.toContain(
      String(stats.totalMessages),
    );
    await expect(admin.statCard("Bogmærker").innerText()).resolves.toContain("Gemte artikler");
    await expect(admin.statCard("Ugentligt aktive").innerText()).resolves.toContain("Sidste 7 dage");
    await expect(admin.statCard("Gns. session").innerText()).resolves.toContain(
      `${Math.round(stats.avgSessionDuration / 60)} min`,
    );
    await page.getByRole("heading", { name: "Populære kategorier" }).waitFor();
    const top = page.getByTestId("admin-top-categories").getByRole("listitem");
    await expect(top.first().innerText()).resolves.toMatch(new RegExp(`^${topCategory}\\s+3 visninger$`));
    await expect(top.nth(1).innerText()).resolves.toMatch(/1 visninger$/);
    await page.getByRole("heading", { name: "Seneste aktivitet" }).waitFor();
    const recent = page.getByTestId("admin-recent-activity").getByRole("listitem");
    expect(await recent.count()).toBeGreaterThan(0);
    expect(await recent.count()).toBeLessThanOrEqual(6);

    // the charts (lazy chunk) draw 30 days
    await admin.messagesChart().locator("svg").first().waitFor();
    await admin.activeChart().locator("svg").first().waitFor();
    await expect(admin.messagesChart().innerText()).resolves.toMatch(/beskeder i alt/);

    // feedback: 2 up, 1 down; the comment is text, not markup
    const feedback = page.getByTestId("admin-feedback");
    await expect(feedback.innerText()).resolves.toMatch(/2 op[\s\S]*1 ned/);
    await expect(feedback.innerText()).resolves.toContain("67 % af vurderingerne er positive");
    await feedback.getByText("Mangler <b>kilde</b>").waitFor();
    // knowledge gaps
    const gaps = page.getByTestId("admin-gaps");
    await gaps.getByRole("listitem").first().waitFor();
    await expect(gaps.innerText()).resolves.toMatch(/orlov/i);

    // reload keeps the tab; back returns to users
    await page.reload();
    await admin.statCards().first().waitFor();
    await page.goBack();
    await admin.panel("users").waitFor();
    await page.goForward();
    await admin.panel("stats").waitFor();
  });

  it("should filter and clear the activity log, expand details and show a new entry live", async () => {
    await admin.openTab("activity");
    await admin.activityCount().waitFor();
    const all = await admin.activityCount().innerText();
    expect(all).toMatch(/^\d+ aktiviteter$/);
    expect(await admin.activityItems().count()).toBeGreaterThan(0);

    await admin.choose(admin.actionFilter(), /^Login$/);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="admin-activity-item"]')].every(
        (e) => e.getAttribute("data-action") === "login",
      ),
    );
    await admin.choose(admin.timeFilter(), /^Sidste time$/);
    await admin.activitySearch().fill(staff[0].input.email);
    await page.waitForFunction(
      (email) =>
        [...document.querySelectorAll('[data-testid="admin-activity-item"]')].every((e) =>
          e.textContent?.includes(email),
        ),
      staff[0].input.email,
    );
    await admin
      .activityCount()
      .filter({ hasText: /^1 aktiviteter$/ })
      .waitFor();
    const item = admin.activityItems().first();
    await expect(item.innerText()).resolves.toMatch(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);

    // details: formatted JSON as text
    const details = item.getByRole("button", { name: "Detaljer" });
    if ((await details.count()) > 0) {
      await details.click();
      await expect(details.getAttribute("aria-expanded")).resolves.toBe("true");
      await item.locator("pre").waitFor();
    }

    // a sign-in elsewhere arrives live while the filters show logins of that user
    await rest(app, "POST", "/api/auth/login", {
      body: { email: staff[0].input.email, password: staff[0].input.password },
    });
    await admin
      .activityCount()
      .filter({ hasText: /^2 aktiviteter$/ })
      .waitFor();
    expect(await admin.activityItems().count()).toBe(2);
    await checkScreen(page, "admin-activity", "light");

    // nothing matches → the empty state
    await admin.activitySearch().fill("ingen-saadan-aktivitet");
    await admin.activityEmpty().waitFor();
    await expect(admin.activityEmpty().innerText()).resolves.toMatch(/Ingen aktivitet fundet/);

    await admin.clearFilters().click();
    // the unfiltered list comes back from the server with the new sign-in counted
    await page.waitForFunction(
      (before) => {
        const text = document.querySelector('[data-testid="admin-activity-count"]')?.textContent ?? "";
        return Number.parseInt(text, 10) > before;
      },
      Number.parseInt(all, 10),
    );
    await expect(admin.activitySearch().inputValue()).resolves.toBe("");
    await expect(admin.actionFilter().innerText()).resolves.toBe("Alle handlinger");
    await expect(admin.timeFilter().innerText()).resolves.toBe("Al tid");
    await expect(admin.clearFilters().isDisabled()).resolves.toBe(true);
  });

  it("should show the Notion configuration panel in the Notion tab", async () => {
    // in dark: the tour walks every tab in both palettes, connected; notion.test.ts checks this card in light
    await setPrefs({ theme: "dark" });
    await admin.goto("notion");
    // not connected in this test server: the connection card says so and offers the token field
    await page.getByRole("heading", { name: "Notion-forbindelse" }).waitFor();
    await page.getByText("Ikke forbundet", { exact: false }).first().waitFor();
    await page.getByLabel("Integrations-token").waitFor();
    await checkScreen(page, "admin-notion", "dark");
    await setPrefs({ theme: "light" });
  });

  // (390 px and every tab in dark: the tour's narrow and dark-english walks, axe included)
  it("should speak English", async () => {
    await setPrefs({ language: "en" });
    await admin.goto("users");
    await admin.tab("users").filter({ hasText: "Users" }).waitFor();
    await admin
      .userCount()
      .filter({ hasText: /^\d+ users$/ })
      .waitFor();
    await admin.userSearch().waitFor();

    await admin.openTab("stats");
    await page.getByRole("heading", { name: "Popular categories" }).waitFor();
    await admin.messagesChart().locator("svg").first().waitFor();

    await admin.openTab("activity");
    await admin
      .activityCount()
      .filter({ hasText: /^\d+ activities$/ })
      .waitFor();

    await setPrefs({ language: "da" });
  });

  it("should show sharing an untitled conversation with the reader's untitled text (English: 'New chat')", async () => {
    const owner = staff[3];
    const ok = async (query: string, variables: Record<string, unknown>) => {
      const res = await gql(app, query, variables, owner.token);
      expect(res.errors).toBeUndefined();
      return res.data;
    };
    const { sessionId } = (await ok("mutation { createSession { sessionId } }", {})).createSession;
    await ok(
      'mutation S($s: ID!) { sendMessage(sessionId: $s, content: "Hvad er klagefristen?") { session { sessionId } } }',
      { s: sessionId },
    );
    await app.services.chat.whenIdle();
    // named "Ny chat" deliberately: untitled again, as a new session is
    await ok('mutation R($s: ID!) { renameSession(sessionId: $s, title: "Ny chat") { title } }', {
      s: sessionId,
    });
    await ok("mutation D($s: ID!) { shareChatSession(sessionId: $s) { id } }", { s: sessionId });

    await setPrefs({ language: "en" });
    // the file's page (English since the last test): at 1280 px in light as it is, then loaded again in dark and
    // narrowed to 390 px (the app reads the theme on its load), not two new contexts
    const screen = page;
    const view = admin;
    try {
      for (const [width, theme, load] of [
        [1280, "light", false],
        [390, "dark", true],
      ] as const) {
        await setPrefs({ theme });
        await screen.setViewportSize({ width, height: 900 });
        if (load) await view.goto("activity");
        else await view.openTab("activity");
        await view.activitySearch().fill(owner.input.email);
        const shared = view.activityItems().filter({ hasText: "shared the conversation" });
        await expect
          .poll(() => shared.first().innerText())
          .toContain(`${owner.user.name} shared the conversation "New chat"`);
        expect(await view.activityItems().allInnerTexts()).not.toContainEqual(
          expect.stringContaining("Ny chat"),
        );
        await screenshot(screen, `admin-activity-untitled-share-${width}-${theme}-en`);
      }
    } finally {
      await screen.setViewportSize({ width: 1280, height: 900 });
      await setPrefs({ language: "da", theme: "light" });
    }
  });
});
