import type { TestApp } from "@vidensbank/api/testing/app";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoginPage } from "./pages/LoginPage";
import { ForgotPasswordPage, ResetPasswordPage } from "./pages/PasswordPages";
import { RegisterPage } from "./pages/RegisterPage";
import { Toast } from "./pages/Toast";
import { expectAccessible } from "./support/axe";
import { bodyBackground, launchBrowser, newContext } from "./support/browser";
import { screenshot } from "./support/screenshots";
import { startServer } from "./support/server";
import { goInApp } from "./support/tour";

const THEMES = ["light", "dark"] as const;

describe("web: public screens", () => {
  let app: TestApp;
  let browser: Browser;
  const contexts: Record<(typeof THEMES)[number], BrowserContext> = {} as never;
  const pages: Record<(typeof THEMES)[number], Page> = {} as never;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startServer(), launchBrowser()]);
    for (const theme of THEMES) {
      contexts[theme] = await newContext(browser, { baseURL: app.url, theme });
      pages[theme] = await contexts[theme].newPage();
    }
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  // (each screen's axe, overflow and text checks in light, dark, English and at 390 px: the tour's three walks)
  it("should show every public screen under its heading, in the light and the dark palette", async () => {
    // the e-mail links (a token read on load, or the link without it) are loaded, the others followed in the app
    // as its links do (as the tour's walks: a load costs the renderer ~1.6 s)
    const screens: [string, string, string, "load" | "in-app"][] = [
      ["login", "/login", "Log ind", "load"],
      ["register", "/register", "Opret konto", "in-app"],
      ["forgot-password", "/forgot-password", "Glemt password", "in-app"],
      ["reset-password", "/reset-password?token=abc", "Vælg nyt password", "load"],
      ["reset-password-invalid", "/reset-password", "Ugyldig link", "load"],
      ["verify-email-no-token", "/verify-email", "Bekræftelsen mislykkedes", "load"],
      ["terms", "/terms", "Vilkår for brug", "in-app"],
      ["not-found", "/findes-ikke", "404 Page Not Found", "in-app"],
    ];
    const backgrounds: Record<string, string> = {};
    for (const theme of THEMES) {
      const page = pages[theme];
      for (const [, path, heading, how] of screens) {
        if (how === "load") await page.goto(path);
        else await goInApp(page, path, "h1");
        await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
        if (theme === "dark") break; // the palette: one screen is enough
      }
      backgrounds[theme] = await bodyBackground(page);
    }
    // the dark page is done: closed, not left rendering for the rest of the file
    await contexts.dark.close();
    // The two themes really are different palettes.
    expect(backgrounds.light).toBe("rgb(243, 245, 249)");
    expect(backgrounds.dark).toBe("rgb(14, 19, 26)");
  });

  it("should show the 404 screen with its hint for an unknown path", async () => {
    const page = pages.light;
    await page.goto("/det/findes/ikke");
    await expect(page.getByRole("heading", { level: 1 }).innerText()).resolves.toBe("404 Page Not Found");
    await expect(page.getByText("Did you forget to add the page to the router?").isVisible()).resolves.toBe(
      true,
    );
  });

  it("should show the terms with nine sections, the date, v1.0 and © 2025", async () => {
    const page = pages.light;
    await goInApp(page, "/terms", "h1");
    await page.getByRole("heading", { name: "Vilkår for brug", level: 1 }).waitFor();
    const sections = await page.locator("main section h2").allInnerTexts();
    expect(sections).toEqual([
      "1. Brug af Vidensbank",
      "2. Adgang og sikkerhed",
      "3. Databehandling (GDPR)",
      "4. AI-assistenten",
      "5. Tredjepartsintegrationer",
      "6. Ansvarsbegrænsning",
      "7. Support og vedligeholdelse",
      "8. Ændringer af vilkårene",
      "9. Kontakt",
    ]);
    await expect(page.getByTestId("terms-updated").innerText()).resolves.toBe(
      "Sidst opdateret: 22. juni 2025",
    );
    const body = await page.locator("body").innerText();
    expect(body).toContain("v1.0");
    expect(body).toContain("© 2025");
    expect(body).toContain("ikke juridisk rådgivning");
    expect(body).toContain("Notion");
    // the back button and the home link
    await page.getByRole("link", { name: "Hjem" }).click();
    await page.waitForURL("**/login");
  });

  it("should show 'Ugyldig link' with a way to ask for a new one when the reset link has no token", async () => {
    const page = pages.light;
    await page.goto("/reset-password");
    await page.getByRole("heading", { name: "Ugyldig link" }).waitFor();
    await page.getByRole("link", { name: "Anmod om et nyt link" }).click();
    await page.waitForURL("**/forgot-password");
  });

  it("should say 'Ingen verifikations-token fundet' on /verify-email without a token", async () => {
    const page = pages.light;
    await page.goto("/verify-email");
    await page.getByText("Ingen verifikations-token fundet").waitFor();
  });

  it("should send signed-out visitors of protected pages to /login", async () => {
    const page = pages.light;
    for (const path of ["/", "/knowledge", "/profile", "/admin", "/admin/notion"]) {
      await page.goto(path);
      await page.waitForURL("**/login");
    }
  });

  it("should show each validation message of spec §5 for a bad value", async () => {
    const page = pages.light;
    const errorOf = (id: string) => page.locator(`#${id}-helper-text`).innerText();

    const login = await new LoginPage(page).goto();
    await login.login("ikke-en-email", "");
    expect(await errorOf("login-email")).toBe("Ugyldig email format");
    expect(await errorOf("login-password")).toBe("Password er påkrævet");

    // the other forms through the app's links; the reset link (a token read on load) loaded
    await goInApp(page, "/register", "h1");
    const register = new RegisterPage(page);
    await register.register({ name: "K", email: "karen@", username: "ka", password: "12345" });
    expect(await errorOf("register-name")).toBe("Navn skal være mindst 2 tegn");
    expect(await errorOf("register-email")).toBe("Ugyldig email format");
    expect(await errorOf("register-username")).toBe("Brugernavn skal være mindst 3 tegn");
    expect(await errorOf("register-password")).toBe("Password skal være mindst 6 tegn");
    // focus moved to the first bad field (keyboard users land where the problem is)
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("register-name");
    await screenshot(page, "register-errors-light");

    await register.fill({
      name: "x".repeat(101),
      email: "karen@minksekretariatet.dk",
      username: "u".repeat(51),
      password: "hemmeligt",
    });
    await register.submit().click();
    expect(await errorOf("register-name")).toBe("Navn må højst være 100 tegn");
    expect(await errorOf("register-username")).toBe("Brugernavn må højst være 50 tegn");

    // The allowed domain is server configuration: the server's field error is shown on the field.
    await register.fill({
      name: "Karen Jensen",
      email: "karen@gmail.com",
      username: "karenj",
      password: "hemmeligt",
    });
    await register.submit().click();
    await page.locator("#register-email-helper-text").waitFor();
    expect(await errorOf("register-email")).toBe("Kun @minksekretariatet.dk email adresser er tilladt");

    await goInApp(page, "/forgot-password", "h1");
    const forgot = new ForgotPasswordPage(page);
    await forgot.request("karen(at)minksekretariatet.dk");
    expect(await errorOf("forgot-email")).toBe("Ugyldig email format");

    const reset = await new ResetPasswordPage(page).goto("/reset-password?token=x");
    await reset.reset("12345", "");
    expect(await errorOf("reset-newPassword")).toBe("Password skal være mindst 6 tegn");
    expect(await errorOf("reset-confirmPassword")).toBe("Password skal være mindst 6 tegn");
    await reset.reset("hemmeligt-1", "hemmeligt-2");
    expect(await errorOf("reset-confirmPassword")).toBe("Passwords matcher ikke");
  });

  it("should show 'Login fejlede' for wrong credentials, one toast at a time, reachable with F8", async () => {
    const page = pages.light;
    await goInApp(page, "/login", "h1");
    const login = new LoginPage(page);
    await login.login("ingen@minksekretariatet.dk", "forkert-password");
    const text = await new Toast(page).waitForTitle("Login fejlede");
    expect(text).toContain("Ugyldige login oplysninger");
    await login.submit().click(); // a second failure replaces the first toast
    await page.waitForTimeout(500);
    await expect(page.getByTestId("toast").count()).resolves.toBe(1);
    await page.keyboard.press("F8");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
      "Notifikationer (F8)",
    );
    await page.getByRole("button", { name: "Luk notifikation" }).click();
    // the toast leaves with its exit transition: wait for it rather than read the count at once
    await expect.poll(() => page.getByTestId("toast").count(), { timeout: 10_000 }).toBe(0);
  });

  it("should be usable by keyboard alone, with a visible focus ring", async () => {
    const page = pages.light;
    await new LoginPage(page).goto();
    // Tab order: email → password → its show/hide toggle → forgot link → submit
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("login-email");
    await page.keyboard.type("ikke-en-email");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("login-password");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter"); // the toggle shows the password
    await expect(page.locator("#login-password").getAttribute("type")).resolves.toBe("text");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const style = getComputedStyle(el);
      return { text: el.textContent, outline: style.outlineStyle, width: style.outlineWidth };
    });
    expect(focused).toEqual({ text: "Log ind", outline: "solid", width: "3px" });
    await page.keyboard.press("Enter");
    await expect(page.locator("#login-email-helper-text").innerText()).resolves.toBe("Ugyldig email format");
    // focus went back to the first bad field
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("login-email");
  });

  it("should fit a 360 px wide phone screen without horizontal scrolling", async () => {
    // the file's page narrowed to 360 px: the first screen loaded, the others through the app's links
    const page = pages.light;
    await page.setViewportSize({ width: 360, height: 740 });
    try {
      for (const [name, path, how] of [
        ["login", "/login", "load"],
        ["register", "/register", "in-app"],
        ["terms", "/terms", "in-app"],
      ]) {
        if (how === "load") await page.goto(path);
        else await goInApp(page, path, "h1");
        await page.getByRole("heading", { level: 1 }).first().waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${path} overflows`).toBeLessThanOrEqual(0);
        await screenshot(page, `${name}-mobile-light`);
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });
  it("should fail the accessibility check on a screen with a serious violation, and pass it again without", async () => {
    const page = pages.light;
    await goInApp(page, "/login", "h1");
    await expectAccessible(page, "login");
    // a button with no accessible name (axe's button-name: critical)
    await page.evaluate(() => {
      const button = document.createElement("button");
      button.id = "axe-probe";
      document.querySelector("main")?.append(button);
    });
    const failure = await expectAccessible(page, "login with a nameless button").then(
      () => null,
      (error: { actual?: unknown }) => error,
    );
    expect(failure?.actual).toEqual([expect.stringMatching(/^button-name \(critical\)[\s\S]*#axe-probe/)]);
    await page.evaluate(() => document.getElementById("axe-probe")?.remove());
    await expectAccessible(page, "login");
  });
});
