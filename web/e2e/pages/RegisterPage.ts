import type { Page } from "playwright-core";
import { field } from "./field";

export interface RegisterValues {
  name: string;
  email: string;
  username: string;
  password: string;
}

/** /register, in Danish or English */
export class RegisterPage {
  constructor(readonly page: Page) {}

  readonly name = () => field(this.page, "Fulde navn", "Full name");
  readonly email = () => field(this.page, "Email");
  readonly username = () => field(this.page, "Brugernavn", "Username");
  readonly password = () => field(this.page, "Password");
  readonly submit = () => this.page.getByRole("button", { name: /^(Opret konto|Create account)$/ });

  async goto(): Promise<this> {
    await this.page.goto("/register");
    await this.page.getByRole("heading", { name: /^(Opret konto|Create account)$/, level: 1 }).waitFor();
    return this;
  }

  async fill(values: RegisterValues): Promise<void> {
    await this.name().fill(values.name);
    await this.email().fill(values.email);
    await this.username().fill(values.username);
    await this.password().fill(values.password);
  }

  async register(values: RegisterValues): Promise<void> {
    await this.fill(values);
    await this.submit().click();
  }
}
