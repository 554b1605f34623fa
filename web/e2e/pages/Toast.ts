import type { Page } from "playwright-core";

/** The single toast in the notification region. */
export class Toast {
  constructor(readonly page: Page) {}

  readonly root = () => this.page.getByTestId("toast");

  async text(): Promise<string> {
    await this.root().waitFor();
    return (await this.root().innerText()).replace(/\s+/g, " ").trim();
  }

  async waitForTitle(title: string): Promise<string> {
    await this.root().filter({ hasText: title }).waitFor();
    return this.text();
  }
}
