import { Errors } from "@vidensbank/api/errors";
import type { TestApp } from "@vidensbank/api/testing/app";
import { updatePreferences } from "@vidensbank/api/users/preferences.service";
import { formatMessage, type MessageKey, messages } from "@vidensbank/shared";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverMessageText } from "../src/i18n/serverMessage";
import { LoginPage } from "./pages/LoginPage";
import { ForgotPasswordPage, ResetPasswordPage } from "./pages/PasswordPages";
import { ProfilePage } from "./pages/ProfilePage";
import { RegisterPage } from "./pages/RegisterPage";
import { Toast } from "./pages/Toast";
import { closeAfterEach, launchBrowser, newContext } from "./support/browser";
import { newStaff, startServer } from "./support/server";
import { goInApp } from "./support/tour";

describe("web: server messages in the user's language, by key", () => {
  it("should show every catalogue key in English for English and as the server's Danish for Danish", () => {
    for (const key of Object.keys(messages) as MessageKey[]) {
      const params = { max: 10, name: "Karen", domain: "eksempel.dk", field: "title", detail: "x", count: 2 };
      const danish = formatMessage(key, { ...params, seconds: 5, minutes: 3, mb: 8, length: 9 }, "da");
      const sent = { key, params: { ...params, seconds: 5, minutes: 3, mb: 8, length: 9 }, text: danish };
      expect(serverMessageText(sent, "da"), key).toBe(danish);
      const english = serverMessageText(sent, "en");
      expect(english, key).not.toBe(danish);
      expect(english, key).not.toMatch(/[æøåÆØÅ]/);
    }
  });

  it("should translate by the key the server sent, not by its text", () => {
    const sent = (e: ReturnType<typeof Errors.notFound>) => ({
      key: e.key,
      params: e.params,
      text: e.message,
    });
    const en = (e: ReturnType<typeof Errors.notFound>) => serverMessageText(sent(e), "en");
    expect(en(Errors.tooManyRequests(1))).toBe("Too many attempts. Try again in 1 second.");
    expect(en(Errors.tooManyRequests(45))).toBe("Too many attempts. Try again in 45 seconds.");
    expect(en(Errors.tooManyRequests(60))).toBe("Too many attempts. Try again in 1 minute.");
    expect(en(Errors.tooManyRequests(600))).toBe("Too many attempts. Try again in 10 minutes.");
    // the Danish text stays what the spec says, whatever the key
    expect(Errors.tooManyRequests(600).message).toBe("For mange forsøg. Prøv igen om 10 minutter.");
    expect(en(Errors.invalidField("title", "rest.fieldTooLong", { field: "title" }))).toBe(
      'The field "title" is too long',
    );
    // the key decides, not the text: a changed Danish wording still shows the right English
    expect(serverMessageText({ key: "errors.invalidCredentials", text: "Forkert login" }, "en")).toBe(
      "Invalid sign-in details",
    );
    // GraphQL's own detail after the Danish prefix stays as it is
    expect(
      serverMessageText(
        { key: "graphql.invalidRequest", params: { detail: 'Cannot query field "x".' } },
        "en",
      ),
    ).toBe('Invalid request: Cannot query field "x".');
    // a key this build does not know (a newer server): the server's text as it came
    expect(serverMessageText({ key: "nyt.fraServeren", text: "Noget helt nyt" }, "en")).toBe(
      "Noget helt nyt",
    );
    expect(serverMessageText({ text: "Noget helt nyt" }, "en")).toBe("Noget helt nyt");
  });
});

/**
 * The same server errors shown in the browser: in English when the visitor's stored language is English (and
 * when a signed-in user's saved language is English), in the spec's Danish otherwise. The server answers in
 * Danish either way.
 */
/** Waits for the toast carrying `description` (an earlier toast may still be showing) and checks its title. */
async function expectToast(page: Page, title: string, description: string | RegExp): Promise<void> {
  const toast = new Toast(page);
  await toast.root().filter({ hasText: description }).waitFor();
  const text = await toast.text();
  expect(text).toContain(title);
  if (typeof description === "string") expect(text).toContain(description);
}

describe("web: server texts in the browser", () => {
  let app: TestApp;
  let browser: Browser;
  const verified = newStaff("lars");
  const unverified = newStaff("mette");
  let verifiedId: string;

  beforeAll(async () => {
    // one e-mail per address, so a second request for the same address is refused with a wait time
    [app, browser] = await Promise.all([
      startServer({ rateLimits: { mailPerAddress: { points: 1, duration: 600 } } }),
      launchBrowser(),
    ]);
    verifiedId = String(
      (await app.services.auth.createAccount(verified, { role: "user", verified: true }))._id,
    );
    await app.services.auth.createAccount(unverified, { role: "user", verified: false });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const contexts: BrowserContext[] = [];
  closeAfterEach(contexts);
  async function openPage(language: "da" | "en"): Promise<Page> {
    const context = await newContext(browser, { baseURL: app.url, language });
    contexts.push(context);
    return context.newPage();
  }

  it("should show the server's errors and messages in English on the signed-out screens", async () => {
    const page = await openPage("en");

    const login = await new LoginPage(page).goto();
    await login.login(unverified.email, unverified.password);
    await expectToast(
      page,
      "Account not verified",
      "Your account has not been verified yet. Check your email and click the verification link.",
    );
    await login.password().fill("forkert-password");
    await login.submit().click();
    await expectToast(page, "Sign-in failed", "Invalid sign-in details");

    // the forms reached through the app's links (a load costs the renderer ~1.6 s); the e-mail links loaded
    await goInApp(page, "/register", "h1");
    const register = new RegisterPage(page);
    await register.register({ ...newStaff("dublet"), email: verified.email });
    await expectToast(page, "Registration failed", "A user with this email already exists");

    // a server field error (the allowed domain is server configuration)
    await register.register({ ...newStaff("gmail"), email: "karen@gmail.com" });
    await expect(page.locator("#register-email-helper-text").innerText()).resolves.toBe(
      "Only @minksekretariatet.dk email addresses are allowed",
    );

    // a result message, then the rate limit with its wait time
    await goInApp(page, "/forgot-password", "h1");
    const forgot = new ForgotPasswordPage(page);
    await forgot.request(verified.email);
    await expect(page.getByTestId("forgot-sent").innerText()).resolves.toContain(
      "If an account with this email exists, a link to reset the password has been sent.",
    );
    await page.getByRole("button", { name: "Try again" }).click();
    await forgot.request(verified.email);
    await expectToast(page, "Error", /Too many attempts\. Try again in \d+ minutes?\./);

    const reset = await new ResetPasswordPage(page).goto("/reset-password?token=ugyldig-token");
    await reset.reset("endnu-et-password");
    await expectToast(page, "Error", "The reset link is invalid or has expired");

    await page.goto("/verify-email?token=forkert-token");
    await expect(page.getByTestId("verify-failed").getByRole("alert").innerText()).resolves.toBe(
      "The verification link is invalid or has expired",
    );
    await page.locator("#resend-email").fill(unverified.email);
    await page.getByRole("button", { name: "Send new verification email" }).click();
    await expectToast(
      page,
      "New verification email sent! Check your inbox.",
      "If the account exists and has not been verified, a new verification email has been sent.",
    );
    // nothing of the server's Danish is left on the screen
    expect(await page.locator("body").innerText()).not.toMatch(/[æøå]/);
  });

  it("should show the same server errors in the spec's Danish in Danish mode", async () => {
    const page = await openPage("da");

    const login = await new LoginPage(page).goto();
    await login.login(unverified.email, unverified.password);
    await expectToast(
      page,
      "Konto ikke bekræftet",
      "Din konto er ikke bekræftet endnu. Tjek din email og klik på bekræftelseslinket.",
    );

    // the forms reached through the app's links (a load costs the renderer ~1.6 s); the e-mail links loaded
    await goInApp(page, "/register", "h1");
    const register = new RegisterPage(page);
    await register.register({ ...newStaff("dublet"), email: verified.email });
    await expectToast(page, "Registrering fejlede", "Der findes allerede en bruger med denne email");

    // the English test used up this address's one e-mail
    await goInApp(page, "/forgot-password", "h1");
    const forgot = new ForgotPasswordPage(page);
    await forgot.request(verified.email);
    await expectToast(page, "Fejl", /For mange forsøg\. Prøv igen om \d+ minut(ter)?\./);

    await page.goto("/verify-email?token=forkert-token");
    await expect(page.getByTestId("verify-failed").getByRole("alert").innerText()).resolves.toBe(
      "Bekræftelseslinket er ugyldigt eller udløbet",
    );
  });

  it("should show a wrong current password in the signed-in user's language", async () => {
    const page = await openPage("da");
    const profile = new ProfilePage(page);
    const currentError = () => page.locator("#password-currentPassword-helper-text").innerText();

    // the signed-in user's saved language rules (not the device's)
    await updatePreferences(verifiedId, { language: "en" });
    const login = await new LoginPage(page).goto();
    await login.login(verified.email, verified.password);
    await page.waitForURL((url) => url.pathname === "/");
    // through the app's menu link; the Danish pass below is a load (the app reads the language on its load)
    await goInApp(page, "/profile", "h1");
    await page.getByRole("heading", { name: "My Profile", level: 1 }).waitFor();
    await profile.changePassword("forkert-password", "nyt-password-1");
    await expectToast(page, "Error changing password", "The current password is incorrect");
    expect(await currentError()).toBe("The current password is incorrect");

    await updatePreferences(verifiedId, { language: "da" });
    await profile.goto();
    await page.getByRole("heading", { name: "Min Profil", level: 1 }).waitFor();
    await profile.changePassword("forkert-password", "nyt-password-1");
    await expectToast(page, "Fejl ved ændring af adgangskode", "Nuværende adgangskode er forkert");
    expect(await currentError()).toBe("Nuværende adgangskode er forkert");
  });
});
