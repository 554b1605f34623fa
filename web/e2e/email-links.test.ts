import type { TestApp } from "@vidensbank/api/testing/app";
import { gql } from "@vidensbank/api/testing/client";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppShell } from "./pages/AppShell";
import { LoginPage } from "./pages/LoginPage";
import { ForgotPasswordPage, ResetPasswordPage } from "./pages/PasswordPages";
import { Toast } from "./pages/Toast";
import { launchBrowser, newContext } from "./support/browser";
import { checkScreen } from "./support/checkScreen";
import { linkIn, newStaff, startServer } from "./support/server";

/**
 * The screens reached from e-mailed links: forgot password → link → new password → login with it, and a failed
 * verification → resend → the new link verifies. Accounts are made through the service, as the CLI would.
 */
describe("web: e-mail links", () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  const staff = newStaff("ole");
  const newPassword = "nyt-password-42";

  beforeAll(async () => {
    [app, browser] = await Promise.all([startServer(), launchBrowser()]);
    const user = await app.services.auth.createAccount(staff, { role: "user", verified: true });
    expect(String(user.email)).toBe(staff.email);
    page = await (await newContext(browser, { baseURL: app.url })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it("should confirm the request and offer a retry and a way back to login", async () => {
    const forgot = await new ForgotPasswordPage(page).goto();
    await forgot.request(staff.email);
    await page.getByTestId("forgot-sent").waitFor();
    await checkScreen(page, "forgot-password-sent", "light");
    await page.getByRole("button", { name: "Prøv igen" }).click();
    await forgot.email().waitFor();
    await expect(forgot.email().inputValue()).resolves.toBe(staff.email);
    await expect(page.getByRole("link", { name: "Tilbage til login" }).isVisible()).resolves.toBe(true);
  });

  it("should set a new password through the e-mailed link and log in with it", async () => {
    const mail = await app.mail.waitFor(staff.email);
    const reset = await new ResetPasswordPage(page).goto(linkIn(mail, "/reset-password"));
    await reset.reset(newPassword);
    await page.getByTestId("reset-success").waitFor();
    await checkScreen(page, "reset-password-success", "light");
    await page.getByRole("link", { name: "Gå til login" }).click();
    const login = new LoginPage(page);
    await login.heading().waitFor();
    await login.login(staff.email, newPassword);
    await page.waitForURL((url) => url.pathname === "/");
    await expect(new AppShell(page).userName().innerText()).resolves.toBe(staff.name);
  });

  it("should show 'Fejl' with the server's message for a used or unknown token", async () => {
    await page.evaluate(() => localStorage.clear());
    const reset = await new ResetPasswordPage(page).goto("/reset-password?token=ugyldig-token");
    await reset.reset("endnu-et-password");
    const text = await new Toast(page).waitForTitle("Fejl");
    expect(text.length).toBeGreaterThan("Fejl".length);
    await expect(page.getByTestId("reset-success").count()).resolves.toBe(0);
  });

  it("should resend a verification e-mail from a failed verification, and verify with the new link", async () => {
    const late = newStaff("sofie");
    await app.services.auth.createAccount(late, { role: "user", verified: false });
    await page.goto("/verify-email?token=forkert-token");
    await page.getByTestId("verify-failed").waitFor();
    await page.locator("#resend-email").fill(late.email);
    await page.getByRole("button", { name: "Send ny bekræftelses-email" }).click();
    await new Toast(page).waitForTitle("Ny verifikations-email sendt! Tjek din indbakke.");
    const mail = await app.mail.waitFor(late.email);
    await page.goto(linkIn(mail, "/verify-email"));
    await page.getByTestId("verify-success").waitFor();
    // on to the login by the screen's own link, as the user would (no new load of the app)
    await page.getByTestId("verify-success").getByRole("link", { name: "Gå til login" }).click();
    const login = new LoginPage(page);
    await login.heading().waitFor();
    await login.login(late.email, late.password);
    await page.waitForURL((url) => url.pathname === "/");
  });

  it("should notice on window focus that the session was ended elsewhere and go to /login", async () => {
    // signed in from the previous test; end that session from outside the page (another device's logout)
    await new AppShell(page).userName().waitFor();
    const token = await page.evaluate(() => localStorage.getItem("auth_token"));
    const res = await gql(app, "mutation { logout }", {}, token);
    expect(res.data?.logout).toBe(true);
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await page.waitForURL("**/login");
  });
});
