import type { Page } from "playwright-core";

/** /profile */
export class ProfilePage {
  constructor(readonly page: Page) {}

  readonly heading = () => this.page.getByRole("heading", { level: 1 });
  readonly language = () => this.page.locator("#prefs-language");
  readonly theme = () => this.page.locator("#prefs-theme");
  readonly notifications = () => this.page.locator("#prefs-notifications");
  readonly savePreferences = () =>
    this.page.getByRole("button", { name: /^(Gem præferencer|Save preferences)$/ });
  readonly currentPassword = () => this.page.locator("#password-currentPassword");
  readonly newPassword = () => this.page.locator("#password-newPassword");
  readonly confirmPassword = () => this.page.locator("#password-confirmPassword");
  readonly changePasswordButton = () =>
    this.page.getByRole("button", { name: /^(Ændr adgangskode|Change password)$/ });

  async goto(): Promise<this> {
    await this.page.goto("/profile");
    await this.savePreferences().waitFor();
    return this;
  }

  /** Account card value by key: name, email, username, role. */
  account(key: "name" | "email" | "username" | "role" | "created") {
    return this.page.getByTestId(`account-${key}`);
  }

  async setPreferences(prefs: {
    language?: "da" | "en";
    theme?: "light" | "dark" | "system";
    notifications?: boolean;
  }) {
    if (prefs.language) await this.language().selectOption(prefs.language);
    if (prefs.theme) await this.theme().selectOption(prefs.theme);
    if (prefs.notifications !== undefined) await this.notifications().setChecked(prefs.notifications);
    await this.savePreferences().click();
  }

  async changePassword(current: string, next: string, confirmation = next): Promise<void> {
    await this.currentPassword().fill(current);
    await this.newPassword().fill(next);
    await this.confirmPassword().fill(confirmation);
    await this.changePasswordButton().click();
  }
}
