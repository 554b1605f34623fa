/**
 * Long Danish words and titles on every screen that shows user or article text: a 60-character compound word (no
 * place to break it but anywhere) and a 200-character title, in an article's title, category, subcategory and
 * tags, a user's name and username, a search and a bookmark. At 390 px (light, Danish) and 1280 px (dark,
 * English) each screen must hold the tour's checks (support/tour.ts inspect: no sideways overflow, no text
 * spilling out of its box, ...). Pictures: tour-long-text-<width>-<screen>.png.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../api/src/testing/app";
import { createVerifiedUser, gql, loginAdmin } from "../../api/src/testing/client";
import { closeAfterEach, launchBrowser } from "./support/browser";
import { startServer } from "./support/server";
import { inspect, openVariant, type Variant, visitWith } from "./support/tour";

/** 60 characters, one word */
const WORD = "Medlemsforeningsklagesagsbehandlingsfristforlængelsesreglers";
/** 200 characters with the long word in it */
const TITLE = `Vejledning om ${WORD} betydning for behandlingen af klager over afgørelser truffet af sekretariatet, bestyrelsen og klageudvalget i alle sære sager`;
const NAME = `Karen-Margrethe ${WORD.slice(0, 40)} Jensen`;

const VARIANTS: Variant[] = [
  { name: "long-text-390", width: 390, theme: "light", language: "da", axe: [] },
  { name: "long-text-1280", width: 1280, theme: "dark", language: "en", axe: [] },
];

describe("web: long words and titles", () => {
  let app: TestApp;
  let browser: Browser;
  let staffToken: string;
  let adminToken: string;
  let articleId: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [app, browser] = await Promise.all([startServer(), launchBrowser()]);
    expect(WORD).toHaveLength(60);
    expect(TITLE).toHaveLength(200);
    adminToken = await loginAdmin(app);
    const staff = await createVerifiedUser(app, {
      name: NAME,
      username: `u${Date.now().toString(36)}${"x".repeat(40)}`.slice(0, 50),
    });
    staffToken = staff.token;
    const created = await gql<{ createKnowledgeArticle: { id: string } }>(
      app,
      "mutation($i: KnowledgeArticleInput!) { createKnowledgeArticle(input: $i) { id } }",
      {
        i: {
          title: TITLE,
          content: `# ${TITLE}\n${WORD} gælder for alle klager.\n\n## ${WORD}\n- ${WORD}\n1. ${WORD}`,
          category: "Sagsbehandling",
          subcategory: WORD,
          tags: [WORD.slice(0, 50), "klage", "frister", "afgørelse"],
        },
      },
      adminToken,
    );
    expect(created.errors).toBeUndefined();
    articleId = created.data!.createKnowledgeArticle.id;
    // a category named by the long word: its card on the overview, its own view's heading and search label
    const inLongCategory = await gql(
      app,
      "mutation($i: KnowledgeArticleInput!) { createKnowledgeArticle(input: $i) { id } }",
      { i: { title: "Kort titel", content: "Kort indhold om klager.", category: WORD, tags: ["klage"] } },
      adminToken,
    );
    expect(inLongCategory.errors).toBeUndefined();
    const bookmarked = await gql(
      app,
      "mutation($a: ID!) { addBookmark(articleId: $a) { __typename } }",
      { a: articleId },
      staffToken,
    );
    expect(bookmarked.errors).toBeUndefined();
  }, 120_000);

  closeAfterEach(contexts);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  async function open(variant: Variant, token: string): Promise<Page> {
    const { page, context } = await openVariant(app, browser, variant, token);
    contexts.push(context);
    return page;
  }

  /** every screen's findings, so one run names them all (not only the first screen that fails) */
  const problems: string[] = [];
  async function check(page: Page, variant: Variant, screen: string) {
    try {
      await inspect(page, variant, screen);
    } catch (e) {
      const { message, actual } = e as Error & { actual?: unknown };
      problems.push(`${message.split("\n")[0]} ${JSON.stringify(actual)}`);
    }
  }
  const visit = visitWith(check);

  for (const variant of VARIANTS) {
    it(`should fit the long texts on the staff screens at ${variant.width} px`, async () => {
      const page = await open(variant, staffToken);
      await visit(page, variant, `knowledge`, "/knowledge", "[data-testid=knowledge-overview] h1");
      await visit(
        page,
        variant,
        `category`,
        "/knowledge?category=Sagsbehandling",
        "[data-testid=knowledge-category] h1",
        "in-app",
      );
      await visit(
        page,
        variant,
        `article`,
        `/knowledge?article=${encodeURIComponent(articleId)}`,
        "[data-testid=article-content]",
        "in-app",
      );
      // after the article, not straight after the other category (whose view and heading it would keep): in the
      // app too, no load
      await visit(
        page,
        variant,
        `category-long`,
        `/knowledge?category=${encodeURIComponent(WORD)}`,
        "[data-testid=knowledge-category] h1",
        "in-app",
      );
      await visit(
        page,
        variant,
        `search`,
        `/knowledge?q=${encodeURIComponent(WORD)}`,
        "[data-testid=knowledge-result-count]",
        "in-app",
      );
      await visit(
        page,
        variant,
        `bookmarks`,
        "/knowledge?view=bookmarks",
        "[data-testid=knowledge-bookmarks] h1",
        "in-app",
      );
      await visit(page, variant, `profile`, "/profile", "h1", "in-app");
      expect(problems.splice(0)).toEqual([]);
    }, 180_000);

    it(`should fit the long texts on the administrator's screens at ${variant.width} px`, async () => {
      const page = await open(variant, adminToken);
      await visit(page, variant, `admin-users`, "/admin", "[data-testid=admin-user-card]");
      for (const tab of ["stats", "activity"] as const) {
        await page.getByRole("tab", { name: tab === "stats" ? /Statisti/ : /Aktivitet|Activity/ }).click();
        await page.getByTestId(`admin-${tab}`).waitFor();
        await check(page, variant, `admin-${tab}`);
      }
      expect(problems.splice(0)).toEqual([]);
    }, 180_000);
  }
});
