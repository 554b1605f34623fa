import type { Page } from "playwright-core";
import { field } from "./field";

/** /admin/notion (and the Notion tab of /admin): connection, database list, save, sync — Danish or English. */
export class NotionAdminPage {
  constructor(readonly page: Page) {}

  readonly heading = () => this.page.getByRole("heading", { level: 1 });
  readonly panel = () => this.page.getByTestId("notion-config-panel");
  readonly loading = () =>
    this.page.getByText(/^(Indlæser admin konfiguration\.\.\.|Loading admin configuration\.\.\.)$/);
  readonly tokenField = () => field(this.page, "Integrations-token", "Integration token");
  readonly connectButton = () => this.page.getByRole("button", { name: /^(Forbind|Connect)$/ });
  readonly oauthLink = () =>
    this.page.getByRole("link", { name: /^(Forbind med Notion|Connect with Notion)$/ });
  readonly workspace = () => this.page.getByTestId("notion-workspace");
  readonly disconnectButton = () =>
    this.page.getByRole("button", { name: /^(Afbryd forbindelse|Disconnect)$/ });
  readonly confirmDialog = () => this.page.getByRole("dialog");
  readonly databases = () => this.page.getByTestId("notion-database");
  readonly database = (title: string) => this.databases().filter({ hasText: title });
  readonly checkbox = (title: string) => this.page.getByRole("checkbox", { name: title, exact: true });
  readonly summary = (key: "available" | "active" | "pages" | "updated") =>
    this.page.getByTestId(`notion-summary-${key}`).locator("dd");
  readonly selectedCount = () => this.page.getByTestId("notion-selected-count");
  readonly saveButton = () =>
    this.page.getByRole("button", {
      name: /^(Gem konfiguration|Save configuration|Gemmer\.\.\.|Saving\.\.\.)$/,
    });
  readonly syncButton = () =>
    this.page.getByRole("button", { name: /^(Synkronisér nu|Sync now|Starter\.\.\.|Starting\.\.\.)$/ });
  readonly syncRunning = () => this.page.getByTestId("notion-sync-running");
  readonly syncResult = () => this.page.getByTestId("notion-sync-result");
  readonly syncFailures = () => this.page.getByTestId("notion-sync-failures");

  async goto(): Promise<this> {
    await this.page.goto("/admin/notion");
    return this;
  }

  /** Waits until the connection's state is known (connected or the token form). */
  async waitForConnection(): Promise<void> {
    await this.workspace().or(this.tokenField()).first().waitFor({ timeout: 20_000 });
  }

  async connectWithToken(token: string): Promise<void> {
    await this.tokenField().fill(token);
    await this.connectButton().click();
    await this.workspace().waitFor({ timeout: 20_000 });
  }

  /** Text of one database row, whitespace collapsed. */
  async rowText(title: string): Promise<string> {
    return (await this.database(title).first().innerText()).replace(/\s+/g, " ").trim();
  }
}
