import type { Page } from "playwright-core";

/** The header of the signed-in pages. */
export class AppShell {
  constructor(readonly page: Page) {}

  readonly nav = () => this.page.getByRole("navigation", { name: /Hovednavigation|Main navigation/ });
  readonly userName = () => this.page.getByTestId("header-user-name");
  readonly logoutButton = () => this.page.getByRole("button", { name: /^(Log ud|Log out)$/ });
  readonly envBadge = () => this.page.getByTestId("env-badge");

  async navLinkNames(): Promise<string[]> {
    return (await this.nav().getByRole("link").allTextContents()).map((s) => s.trim());
  }

  async logout(): Promise<void> {
    await this.logoutButton().click();
  }
}
