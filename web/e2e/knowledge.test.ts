import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../api/src/testing/app";
import { createVerifiedUser, gql, loginAdmin } from "../../api/src/testing/client";
import { DOCUMENTS_STEP } from "../src/features/knowledge/lib/excerpt";
import { articleHref, headingAnchor } from "../src/lib/anchors";
import { KnowledgePage } from "./pages/KnowledgePage";
import { launchBrowser, newContext } from "./support/browser";
import { checkScreen } from "./support/checkScreen";
import { screenshot } from "./support/screenshots";
import { startServer } from "./support/server";
import { goInApp } from "./support/tour";

const REMOTE_HOST = "tracker.example";
const HOSTILE = [
  "<img src=x onerror=alert(1)>",
  "[klik her](javascript:alert(1))",
  `![spor](https://${REMOTE_HOST}/pixel.png)`,
  `<a href="javascript:alert(2)">link</a> <img src="https://${REMOTE_HOST}/raw.png">`,
].join("\n");

/** Every line kind of spec §2, in one article. */
const LINE_KINDS = [
  "# Linjetest hovedafsnit",
  "Indledning til artiklen, som er en almindelig og lidt længere linje med punktum til sidst.",
  "",
  "## Trin for trin",
  "1. Første trin",
  "2. Andet trin",
  "",
  "### Huskeliste",
  "- første punkt",
  "- andet punkt",
  "",
  "",
  "Vigtigt at vide",
  "Titel: Support",
  "husk notat: ring tilbage",
  "",
  HOSTILE,
].join("\n");

/** The views' own elements: what goInApp waits for (the overview's "Alle dokumenter (n)", absent while searching). */
const OVERVIEW = "#knowledge-all-title";
const ARTICLE = "[data-testid=article-content]";

const CREATE = `mutation Create($input: KnowledgeArticleInput!) { createKnowledgeArticle(input: $input) { id title content } }`;

describe("web: knowledge screen", () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let kb: KnowledgePage;
  let token: string;
  let adminToken: string;
  let testArticleId: string;
  const dialogs: string[] = [];
  const remoteRequests: string[] = [];

  const setPrefs = async (input: { theme?: "light" | "dark"; language?: "da" | "en" }) => {
    const res = await gql(
      app,
      "mutation P($input: PreferencesInput!) { updatePreferences(input: $input) { theme } }",
      { input },
      token,
    );
    expect(res.errors).toBeUndefined();
  };

  const openContext = async (width = 1280, height = 860) => {
    const ctx = await newContext(browser, { baseURL: app.url, width, height });
    await ctx.addInitScript((value: string) => localStorage.setItem("auth_token", value), token);
    const p = await ctx.newPage();
    p.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    p.on("request", (r) => {
      if (new URL(r.url()).hostname === REMOTE_HOST) remoteRequests.push(r.url());
    });
    return { ctx, p };
  };

  beforeAll(async () => {
    [app, browser] = await Promise.all([startServer(), launchBrowser()]);
    const staff = await createVerifiedUser(app);
    token = staff.token;
    adminToken = await loginAdmin(app);
    const created = await gql(
      app,
      CREATE,
      {
        input: {
          title: "Linjetest: alle linjetyper i én artikel",
          content: LINE_KINDS,
          category: "Procedurer",
          subcategory: "Test",
          tags: ["linjer", "test", "rendering", "sikkerhed"],
        },
      },
      adminToken,
    );
    expect(created.errors).toBeUndefined();
    testArticleId = created.data.createKnowledgeArticle.id;
    ({ p: page } = await openContext());
    kb = new KnowledgePage(page);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it("should show the hero, the category cards and 'Alle dokumenter (n)'", async () => {
    const all = await gql(app, "{ knowledgeArticles { id } }", {}, token);
    const n = all.data.knowledgeArticles.length;
    await kb.goto();
    await kb.waitForOverview();
    await kb.waitForHeading("Vidensbank");
    await page.getByRole("heading", { level: 2, name: `Alle dokumenter (${n})` }).waitFor();
    for (const name of ["Økonomi", "Procedurer", "Roller", "Sagsbehandling"]) {
      const card = kb.categoryCard(name);
      await expect(card.innerText()).resolves.toMatch(/\d+ artikler/);
    }
    // overview cards: at most 3 tags and a '+n' count (the test article has 4); the count shares the last tag's
    // item, so the two wrap together
    await kb.showAllDocuments();
    const card = kb.cards().filter({ hasText: "Linjetest" });
    await expect(card.getByRole("listitem").allInnerTexts()).resolves.toEqual([
      "linjer",
      "test",
      "rendering\n+1",
    ]);
  });

  it("should show a phone the first documents and the next on 'Vis flere', kept after an article and back", async () => {
    const all = await gql(app, "{ knowledgeArticles { id } }", {}, token);
    const n = all.data.knowledgeArticles.length;
    const step = DOCUMENTS_STEP.phone;
    expect(n).toBeGreaterThan(2 * step);
    const { ctx, p } = await openContext(390, 844);
    try {
      const phone = new KnowledgePage(p);
      await phone.goto();
      await phone.waitForOverview();
      // the spec's heading counts every document; the grid shows the first ones
      await p.getByRole("heading", { level: 2, name: `Alle dokumenter (${n})` }).waitFor();
      await expect(phone.cards().count()).resolves.toBe(step);
      await expect(phone.documentsShown().innerText()).resolves.toBe(`Viser ${step} af ${n}`);
      await screenshot(p, "knowledge-documents-narrow");

      await phone.showMore().click();
      await phone
        .cards()
        .nth(2 * step - 1)
        .waitFor();
      await expect(phone.cards().count()).resolves.toBe(2 * step);
      // the keyboard goes on from the first added card
      const firstAdded = phone.cards().nth(step).getByRole("link").first();
      await expect(firstAdded.evaluate((el) => el === document.activeElement)).resolves.toBe(true);

      // an article and back: the added cards are still there
      const last = phone.cards().nth(2 * step - 1);
      const title = await last.getByRole("heading").innerText();
      await last.getByRole("link").first().click();
      await p.waitForURL((url) => url.searchParams.has("article"));
      await phone.content().waitFor();
      await p.goBack();
      await phone.waitForOverview();
      await expect(phone.cards().count()).resolves.toBe(2 * step);
      await expect(
        phone
          .cards()
          .nth(2 * step - 1)
          .getByRole("heading")
          .innerText(),
      ).resolves.toBe(title);

      // to the end: every document, and no button
      await phone.showAllDocuments();
      await expect(phone.cards().count()).resolves.toBe(n);
      await expect(phone.showMore().count()).resolves.toBe(0);
    } finally {
      await ctx.close();
    }
  });

  it("should find the inflected Danish word with marked snippets, keep recent searches, and go back", async () => {
    await kb.searchFor("sagsbehandlingen");
    await expect(kb.resultsHeading().innerText()).resolves.toBe('Søgeresultater for "sagsbehandlingen"');
    await expect(kb.cardTitles().first().innerText()).resolves.toBe("Frister i sagsbehandlingen");
    const marked = await page.locator("article mark").allInnerTexts();
    expect(marked.map((m) => m.toLowerCase())).toContain("sagsbehandlingen");
    // search cards show at most 2 tags, the last with the '+n' count of the rest
    const tags = await kb.cards().first().getByRole("listitem").allInnerTexts();
    expect(tags.length).toBeLessThanOrEqual(2);
    expect(tags.slice(0, -1).join(" ")).not.toMatch(/\+\d/);

    // a typo: the server corrects it and the screen says what it searched
    await kb.searchFor("generalforsmaling");
    await kb.corrected().waitFor();
    await expect(kb.corrected().innerText()).resolves.toBe('Viste resultater for "generalforsamling"');
    await expect(kb.cardTitles().first().innerText()).resolves.toMatch(/Generalforsamling/i);

    // recent searches are suggestions
    await kb.recentSearch("sagsbehandlingen").click();
    await page.waitForURL((url) => url.searchParams.get("q") === "sagsbehandlingen");
    await kb.resultsHeading().filter({ hasText: "sagsbehandlingen" }).waitFor();

    // browser back/forward move between searches
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get("q") === "generalforsmaling");
    await kb.corrected().waitFor();
    await expect(kb.search().inputValue()).resolves.toBe("generalforsmaling");
    await page.goForward();
    await page.waitForURL((url) => url.searchParams.get("q") === "sagsbehandlingen");

    await kb.searchFor("qqxqzzyy");
    await page.getByText("Ingen resultater fundet").waitFor();
  });

  it("should open a category, search inside it and come back", async () => {
    // from the last test's search, through the app's router as its links do (a load costs the renderer ~1.6 s)
    await goInApp(page, "/knowledge", OVERVIEW);
    await kb.waitForOverview();
    await kb.categoryCard("Økonomi").click();
    await page.waitForURL((url) => url.searchParams.get("category") === "Økonomi");
    await kb.waitForHeading("Økonomi");
    await kb.cards().first().waitFor();
    const categories = await kb.cards().getByText("Økonomi", { exact: true }).count();
    expect(categories).toBe(await kb.cards().count());
    await kb.backToOverview().waitFor();

    await kb.searchFor("budget");
    expect(new URL(page.url()).searchParams.get("category")).toBe("Økonomi");
    await kb.resultsHeading().waitFor();
    const hits = await kb.cards().count();
    expect(hits).toBeGreaterThan(0);
    expect(await kb.cards().getByText("Økonomi", { exact: true }).count()).toBe(hits);

    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has("q"));
    await kb.waitForHeading("Økonomi");
    await kb.backToOverview().click();
    await kb.waitForOverview();
    expect(new URL(page.url()).search).toBe("");

    // an unknown category has no articles (loaded: the one load of a category's address left in the e2e files)
    await kb.goto("?category=Tom");
    await page.getByText("Ingen artikler fundet").waitFor();
  });

  it("should render every line kind of the article, with badges, dates and tags", async () => {
    await goInApp(page, "/knowledge", OVERVIEW);
    await kb.waitForOverview();
    await kb.showAllDocuments();
    await kb.cards().filter({ hasText: "Linjetest" }).getByRole("link").click();
    await page.waitForURL((url) => url.searchParams.get("article") === testArticleId);
    await kb.content().waitFor();
    await kb.waitForHeading("Linjetest: alle linjetyper i én artikel");
    await page.getByLabel("Kategori: Procedurer").waitFor();
    await page.getByLabel("Underkategori: Test").waitFor();
    const dates = await page.getByTestId("article-dates").innerText();
    // da-DK dates, e.g. "25. november 2026"
    expect(dates).toMatch(/Sidst opdateret \d{1,2}\. \p{L}+ \d{4}/u);
    expect(dates).toMatch(/Oprettet \d{1,2}\. \p{L}+ \d{4}/u);
    await expect(page.getByRole("list", { name: "Tags" }).getByRole("listitem").count()).resolves.toBe(4);

    const content = kb.content();
    for (const [level, text] of [
      [2, "Linjetest hovedafsnit"],
      [3, "Trin for trin"],
      [4, "Huskeliste"],
    ] as const) {
      const h = content.getByRole("heading", { level, name: text });
      await expect(h.getAttribute("id")).resolves.toBe(headingAnchor(text));
    }
    await expect(content.locator("ol > li").allInnerTexts()).resolves.toEqual(["Første trin", "Andet trin"]);
    await expect(content.locator("ul > li").allInnerTexts()).resolves.toEqual([
      "første punkt",
      "andet punkt",
    ]);
    const weight = (text: string) =>
      content.getByText(text, { exact: true }).evaluate((el) => getComputedStyle(el).fontWeight);
    for (const bold of ["Vigtigt at vide", "Titel: Support", "husk notat: ring tilbage"]) {
      await expect(weight(bold)).resolves.toBe("700");
    }
    await expect(
      weight("Indledning til artiklen, som er en almindelig og lidt længere linje med punktum til sidst."),
    ).resolves.toBe("400");
    // four blank-line spacings: the two blank lines before 'Vigtigt at vide' count once
    await expect(content.locator('div[aria-hidden="true"]').count()).resolves.toBe(4);
    await checkScreen(page, "knowledge-article", "light");

    // back goes to where the user came from
    await kb.back().click();
    await kb.waitForOverview();
  });

  it("should open a citation address on its heading, scrolled to, focused and marked", async () => {
    // the file's page, 600 px high, loading the address (a citation link opened from elsewhere)
    const p = page;
    await p.setViewportSize({ width: 1280, height: 600 });
    try {
      const href = articleHref(testArticleId, ["Linjetest hovedafsnit", "Huskeliste"]);
      await p.goto(href);
      const heading = p.getByRole("heading", { level: 4, name: "Huskeliste" });
      await heading.waitFor();
      await p.waitForFunction((id) => document.activeElement?.id === id, headingAnchor("Huskeliste"));
      await expect(heading.getAttribute("data-cited")).resolves.toBe("true");
      const box = await heading.boundingBox();
      expect(box && box.y >= 0 && box.y < 600).toBe(true);
      // the page was scrolled (the heading is far below the top of the article)
      await expect(p.evaluate(() => window.scrollY)).resolves.toBeGreaterThan(0);
    } finally {
      await p.setViewportSize({ width: 1280, height: 860 });
    }
  });

  it("should bookmark and unbookmark, and list bookmarks in 'Mine bogmærker'", async () => {
    await goInApp(page, "/knowledge?view=bookmarks", "[data-testid=knowledge-bookmarks] h1");
    await page.getByText("Ingen bogmærker endnu").waitFor();

    await goInApp(page, `/knowledge?article=${testArticleId}`, ARTICLE);
    await kb.addBookmark().click();
    await kb.removeBookmark().waitFor();
    const bookmarks = await gql(app, "{ myBookmarks { articleId } }", {}, token);
    expect(bookmarks.data.myBookmarks).toEqual([{ articleId: testArticleId }]);

    await goInApp(page, "/knowledge", OVERVIEW);
    await kb.bookmarksLink().click();
    await page.waitForURL((url) => url.searchParams.get("view") === "bookmarks");
    await page.getByRole("heading", { level: 1, name: "Mine bogmærker" }).waitFor();
    await kb.cards().filter({ hasText: "Linjetest" }).waitFor();

    await kb.cards().filter({ hasText: "Linjetest" }).getByRole("link").click();
    await kb.removeBookmark().click();
    await kb.addBookmark().waitFor();
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get("view") === "bookmarks");
    await page.getByText("Ingen bogmærker endnu").waitFor();
  });

  it("should render hostile article and snippet text inertly: no dialog, no script, no remote request", async () => {
    // as stored (the server strips HTML) and as a server that did not would send it (responses rewritten: a load,
    // so the article comes from the server, not the app's cache)
    await goInApp(page, `/knowledge?article=${testArticleId}`, ARTICLE);
    await page.route("**/graphql", async (route) => {
      const op = route.request().postDataJSON()?.operationName;
      if (op !== "KnowledgeArticle" && op !== "SearchKnowledge") return route.continue();
      const response = await route.fetch();
      const body = await response.json();
      if (body.data?.knowledgeArticle) body.data.knowledgeArticle.content += `\n${HOSTILE}`;
      for (const hit of body.data?.searchKnowledge?.hits ?? []) {
        hit.snippet = `${HOSTILE} ${hit.snippet}`;
        hit.article.title = `<img src=x onerror=alert(3)> ${hit.article.title}`;
      }
      await route.fulfill({ response, json: body });
    });
    await kb.goto(`?article=${testArticleId}`);
    await kb.content().getByText("<img src=x onerror=alert(1)>").first().waitFor();
    await goInApp(page, "/knowledge?q=linjetest", "[data-testid=knowledge-result-count]");
    await kb.resultsHeading().waitFor();
    await kb
      .cards()
      .first()
      .getByText(/onerror=alert\(1\)/)
      .waitFor();
    await page.waitForTimeout(500);
    await page.unroute("**/graphql");

    await kb.goto(`?article=${testArticleId}`);
    await kb.content().waitFor();
    expect(dialogs).toEqual([]);
    expect(remoteRequests).toEqual([]);
    await expect(page.locator("main img").count()).resolves.toBe(0);
    await expect(page.locator('main a[href^="javascript"], main [onerror]').count()).resolves.toBe(0);
  });

  // (every knowledge screen at 1280 and 390 px, light and dark, with axe: the tour's three walks)

  it("should show the screen in English by message key", async () => {
    await setPrefs({ theme: "light", language: "en" });
    // the file's page: the app reads the language on its load
    const p = page;
    const view = kb;
    await view.goto();
    await view.waitForOverview();
    await p.getByRole("heading", { level: 2, name: "Categories" }).waitFor();
    await p.getByText("Budget, accounts, payments, expenses and membership fees").waitFor();
    await view.searchFor("generalforsmaling");
    await expect(view.corrected().innerText()).resolves.toBe('Showing results for "generalforsamling"');
    await screenshot(p, "knowledge-search-en");
    await goInApp(p, `/knowledge?article=${testArticleId}`, ARTICLE);
    await expect(p.getByTestId("article-dates").innerText()).resolves.toMatch(
      /Last updated \d{1,2} \p{L}+ \d{4}/u,
    );
    await view.addBookmark().waitFor();
    await setPrefs({ language: "da" });
  });

  it("should say 'Ingen dokumenter tilgængelige' with the Notion hint when there are no articles", async () => {
    const all = await gql(app, "{ knowledgeArticles { id } }", {}, token);
    for (const { id } of all.data.knowledgeArticles) {
      const res = await gql(
        app,
        "mutation D($id: ID!) { deleteKnowledgeArticle(id: $id) }",
        { id },
        adminToken,
      );
      expect(res.errors).toBeUndefined();
    }
    await kb.goto();
    await page.getByText("Ingen dokumenter tilgængelige").waitFor();
    await expect(page.getByTestId("knowledge-no-documents").innerText()).resolves.toContain("Notion");
    await checkScreen(page, "knowledge-no-documents", "light");
  });
});
