import type { Page } from "playwright-core";

/** /knowledge: overview, search, category, article and bookmarks views (bilingual, role-based locators). */
export class KnowledgePage {
  constructor(readonly page: Page) {}

  readonly heading = () => this.page.getByRole("heading", { level: 1 });
  readonly search = () => this.page.getByRole("searchbox").first();
  readonly searchButton = () => this.page.getByRole("button", { name: /^(Søg|Search)$/ });
  readonly resultsHeading = () =>
    this.page.getByRole("heading", { level: 2, name: /^(Søgeresultater for|Search results for) / });
  readonly corrected = () => this.page.getByTestId("knowledge-corrected");
  readonly cards = () => this.page.getByRole("article");
  readonly cardTitles = () => this.cards().getByRole("heading");
  readonly recentSearch = (query: string) =>
    this.page.getByRole("navigation", { name: /Seneste søgninger|Recent searches/ }).getByRole("button", {
      name: query,
      exact: true,
    });
  readonly backToOverview = () =>
    this.page.getByRole("link", { name: /^(Tilbage til vidensbanken|Back to the knowledge base)$/ });
  readonly back = () => this.page.getByRole("button", { name: /^(Tilbage|Back)$/ });
  readonly addBookmark = () => this.page.getByRole("button", { name: /^(Tilføj bogmærke|Add bookmark)$/ });
  readonly removeBookmark = () =>
    this.page.getByRole("button", { name: /^(Fjern bogmærke|Remove bookmark)$/ });
  readonly bookmarksLink = () => this.page.getByRole("link", { name: /^(Mine bogmærker|My bookmarks)$/ });
  readonly categoryCard = (name: string) =>
    this.page
      .getByRole("region", { name: /^(Kategorier|Categories)$/ })
      .getByRole("link", { name: new RegExp(`^${name}`) });
  readonly content = () => this.page.getByTestId("article-content");
  readonly allDocuments = () =>
    this.page.getByRole("region", { name: /^(Alle dokumenter|All documents) \(\d+\)$/ });
  readonly showMore = () => this.allDocuments().getByRole("button", { name: /^(Vis flere|Show more)$/ });
  readonly documentsShown = () => this.allDocuments().getByRole("status");

  /** Clicks the overview's "Vis flere" until every document's card is shown. */
  async showAllDocuments(): Promise<void> {
    while (await this.showMore().isVisible()) {
      const before = await this.cards().count();
      await this.showMore().click();
      await this.cards().nth(before).waitFor();
    }
  }

  async goto(query = ""): Promise<this> {
    await this.page.goto(`/knowledge${query}`);
    return this;
  }

  async searchFor(text: string): Promise<void> {
    await this.search().fill(text);
    await this.search().press("Enter");
    await this.page.waitForURL((url) => url.searchParams.get("q") === text);
    await this.page.getByRole("main").locator("[aria-busy=false]").waitFor();
  }

  /** Waits until the overview's cards are shown. */
  async waitForOverview(): Promise<void> {
    await this.page
      .getByRole("heading", { level: 2, name: /^(Alle dokumenter|All documents) \(\d+\)$/ })
      .waitFor({ timeout: 30_000 });
  }

  /** Waits for the view whose h1 is `text` (the address changes a moment before the new view renders). */
  async waitForHeading(text: string): Promise<void> {
    await this.page.getByRole("heading", { level: 1, name: text, exact: true }).waitFor();
  }
}
