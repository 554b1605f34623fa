import type { Page } from "playwright-core";
import { field } from "./field";

/** /login, in Danish or English */
export class LoginPage {
  constructor(readonly page: Page) {}

  readonly email = () => field(this.page, "Email");
  readonly password = () => field(this.page, "Password");
  readonly submit = () => this.page.getByRole("button", { name: /^(Log ind|Sign in)$/ });
  readonly heading = () => this.page.getByRole("heading", { name: /^(Log ind|Sign in)$/, level: 1 });

  async goto(): Promise<this> {
    await this.page.goto("/login");
    await this.heading().waitFor();
    return this;
  }

  async login(email: string, password: string): Promise<void> {
    await this.email().fill(email);
    await this.password().fill(password);
    await this.submit().click();
  }
}
