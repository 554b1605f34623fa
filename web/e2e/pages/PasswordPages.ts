import type { Page } from "playwright-core";
import { field } from "./field";

/** /forgot-password, in Danish or English */
export class ForgotPasswordPage {
  constructor(readonly page: Page) {}

  readonly email = () => field(this.page, "Email");
  readonly submit = () => this.page.getByRole("button", { name: "Send link" });

  async goto(): Promise<this> {
    await this.page.goto("/forgot-password");
    await this.page.getByRole("heading", { name: /^(Glemt password|Forgot password)$/, level: 1 }).waitFor();
    return this;
  }

  async request(email: string): Promise<void> {
    await this.email().fill(email);
    await this.submit().click();
  }
}

/** /reset-password?token=…, in Danish or English */
export class ResetPasswordPage {
  constructor(readonly page: Page) {}

  readonly newPassword = () => field(this.page, "Nyt password", "New password");
  readonly confirmPassword = () => field(this.page, "Bekræft password", "Confirm password");
  readonly submit = () => this.page.getByRole("button", { name: /^(Gem nyt password|Save new password)$/ });

  async goto(url: string): Promise<this> {
    await this.page.goto(url);
    return this;
  }

  async reset(password: string, confirmation = password): Promise<void> {
    await this.newPassword().fill(password);
    await this.confirmPassword().fill(confirmation);
    await this.submit().click();
  }
}
