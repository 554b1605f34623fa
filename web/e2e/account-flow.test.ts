import type { TestApp } from "@vidensbank/api/testing/app";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rest } from "../../api/src/testing/client";
import { AppShell } from "./pages/AppShell";
import { LoginPage } from "./pages/LoginPage";
import { ProfilePage } from "./pages/ProfilePage";
import { RegisterPage } from "./pages/RegisterPage";
import { Toast } from "./pages/Toast";
import { BODY_BACKGROUND, bodyBackground, launchBrowser, newContext } from "./support/browser";
import { checkScreen } from "./support/checkScreen";
import { holdOperation } from "./support/hold";
import { recordInPage } from "./support/record";
import { screenshot } from "./support/screenshots";
import { linkIn, newStaff, startServer } from "./support/server";
import { goInApp } from "./support/tour";

const { light: LIGHT_BG, dark: DARK_BG } = BODY_BACKGROUND;

/** What only each signed-in screen shows once it is ready (goInApp waits for it). */
const READY = {
  "/": '[data-testid="chat-input"]',
  "/knowledge": "#knowledge-all-title",
  "/profile": "#prefs-language",
} as const;

/**
 * One staff member's whole life in the app, in order: register → unverified login refused → e-mail link →
 * verify → login → header → profile (preferences saved and re-read, dark theme, English) → password change →
 * logout → login with the new password. The tests in this file share one browser page and run in order.
 */
describe("web: account flow", () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let toast: Toast;
  const staff = newStaff("karen");
  const newPassword = "endnu-mere-hemmeligt";

  beforeAll(async () => {
    [app, browser] = await Promise.all([startServer(), launchBrowser()]);
    context = await newContext(browser, { baseURL: app.url });
    page = await context.newPage();
    toast = new Toast(page);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it("should register and ask the user to check the e-mail", async () => {
    const register = await new RegisterPage(page).goto();
    await register.register(staff);
    await page.getByTestId("register-check-email").waitFor();
    await expect(page.getByRole("heading", { level: 1 }).innerText()).resolves.toBe("Tjek din email");
    await expect(page.getByTestId("register-check-email").innerText()).resolves.toContain(staff.email);
    await checkScreen(page, "register-check-email", "light");
    // The environment badge is for this one username from now on (ENV_BADGE_USERNAME, named by the operator for
    // an account that exists: nobody can sign up as it).
    app.config.envBadgeUsername = staff.username;
  });

  it("should refuse login before verification with 'Konto ikke bekræftet'", async () => {
    const login = await new LoginPage(page).goto();
    await login.login(staff.email, staff.password);
    const text = await toast.waitForTitle("Konto ikke bekræftet");
    expect(text).toContain("ikke bekræftet");
    expect(await page.evaluate(() => localStorage.getItem("auth_token"))).toBeNull();
    expect(new URL(page.url()).pathname).toBe("/login");
  });

  it("should verify the account through the e-mailed link", async () => {
    const mail = await app.mail.waitFor(staff.email);
    await page.goto(linkIn(mail, "/verify-email"));
    await page.getByTestId("verify-success").waitFor();
    await checkScreen(page, "verify-email-success", "light");
    await page.getByRole("link", { name: "Gå til login" }).click();
    await page.waitForURL("**/login");
  });

  it("should log in, welcome the user by name and go to /", async () => {
    const login = new LoginPage(page);
    await login.heading().waitFor();
    await login.login(staff.email, staff.password);
    await toast.waitForTitle(`Velkommen, ${staff.name}!`);
    await page.waitForURL((url) => url.pathname === "/");
    expect(await page.evaluate(() => localStorage.getItem("auth_token"))).toMatch(/^ey/);
  });

  it("should show the header: links, the user's name, logout and the environment badge", async () => {
    const shell = new AppShell(page);
    await shell.userName().waitFor();
    expect(await shell.navLinkNames()).toEqual(["Hjem", "Vidensbank", "Min Profil"]);
    await expect(shell.userName().innerText()).resolves.toBe(staff.name);
    await expect(shell.logoutButton().isVisible()).resolves.toBe(true);
    // ENV_BADGE_USERNAME is this user: DEV badge with details
    await expect(shell.envBadge().innerText()).resolves.toBe("DEV");
    await shell.envBadge().click();
    const details = page.getByRole("dialog", { name: "Miljøoplysninger" });
    await expect(details.innerText()).resolves.toContain("NODE_ENV");
    await page.keyboard.press("Escape");
    await details.waitFor({ state: "hidden" });
    // the header with the environment badge over an empty session list (the tour's users have no badge)
    await checkScreen(page, "home", "light");
    await page.getByRole("link", { name: "Vidensbank", exact: true }).click();
    await page.waitForURL("**/knowledge");
  });

  it("should show the profile with a skeleton while preferences load, then the three cards", async () => {
    // Hold the preferences answer back until the loading state has been seen.
    const release = await holdOperation(page, "MyPreferences");
    // A fresh load of /profile: the preferences query starts only after the auth check.
    await page.goto("/profile");
    await page.getByTestId("profile-skeleton").waitFor();
    const profile = new ProfilePage(page);
    await expect(profile.savePreferences().isVisible()).resolves.toBe(false);
    await release();
    await profile.savePreferences().waitFor();
    await expect(profile.heading().innerText()).resolves.toBe("Min Profil");
    await page.getByText("Administrer dine kontoindstillinger og præferencer").waitFor();
    await expect(profile.account("name").innerText()).resolves.toBe(staff.name);
    await expect(profile.account("email").innerText()).resolves.toBe(staff.email);
    await expect(profile.account("username").innerText()).resolves.toBe(staff.username);
    await expect(profile.account("role").innerText()).resolves.toBe("Bruger");
    // created date in da-DK, last login as Danish relative time ('… siden')
    await expect(profile.account("created").innerText()).resolves.toMatch(
      /^\d{1,2}\. \p{L}+ \d{4} · sidst logget ind .* siden$/u,
    );
    // defaults: Danish, light, notifications on
    await expect(profile.language().inputValue()).resolves.toBe("da");
    await expect(profile.theme().inputValue()).resolves.toBe("light");
    await expect(profile.notifications().isChecked()).resolves.toBe(true);
  });

  it("should save preferences and read them back after a reload", async () => {
    const profile = new ProfilePage(page);
    const release = await holdOperation(page, "UpdatePreferences");
    await profile.setPreferences({ notifications: false });
    // pending: the button says 'Gemmer...' and cannot be pressed twice
    const saving = page.getByRole("button", { name: "Gemmer..." });
    await saving.waitFor();
    await expect(saving.isDisabled()).resolves.toBe(true);
    await release();
    await toast.waitForTitle("Præferencer opdateret");
    expect(await toast.text()).toContain("Dine indstillinger er blevet gemt");
    await page.reload();
    await profile.savePreferences().waitFor();
    await expect(profile.notifications().isChecked()).resolves.toBe(false);
    await expect(profile.language().inputValue()).resolves.toBe("da");
  });

  it("should switch to the dark palette when the theme is saved as dark", async () => {
    const profile = new ProfilePage(page);
    // another open tab of the same user follows without reloading (graphql-ws subscription)
    const other = await context.newPage();
    await other.goto("/knowledge");
    await new AppShell(other).userName().waitFor();
    expect(await bodyBackground(other)).toBe(LIGHT_BG);
    expect(await bodyBackground(page)).toBe(LIGHT_BG);
    await profile.setPreferences({ theme: "dark" });
    await toast.waitForTitle("Præferencer opdateret");
    await page.waitForFunction((bg) => getComputedStyle(document.body).backgroundColor === bg, DARK_BG);
    await other.waitForFunction((bg) => getComputedStyle(document.body).backgroundColor === bg, DARK_BG);
    await other.close();
    await page.getByRole("button", { name: "Luk notifikation" }).click();
    await toast.root().waitFor({ state: "detached" });
    // (profile and knowledge in dark: the tour's dark-english walk; the badge over an empty list only here)
    // a load reads the saved theme; the app's links keep it
    await page.goto("/");
    await new AppShell(page).userName().waitFor();
    expect(await bodyBackground(page)).toBe(DARK_BG);
    await checkScreen(page, "home", "dark");
    await goInApp(page, "/knowledge", READY["/knowledge"]);
    expect(await bodyBackground(page)).toBe(DARK_BG);
  });

  it("should switch the whole UI to English when the language is saved as English", async () => {
    await goInApp(page, "/profile", READY["/profile"]);
    const profile = new ProfilePage(page);
    await profile.savePreferences().waitFor();
    await profile.setPreferences({ language: "en" });
    try {
      await page.getByRole("heading", { name: "My Profile", level: 1 }).waitFor();
      const shell = new AppShell(page);
      expect(await shell.navLinkNames()).toEqual(["Home", "Knowledge base", "My Profile"]);
      await page.getByText("Manage your account settings and preferences").waitFor();
      await page.getByRole("button", { name: "Log out" }).waitFor();
      await expect(profile.account("role").innerText()).resolves.toBe("User");
      expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
      // the shared validation rules speak English too
      await profile.changePasswordButton().click();
      await expect(page.locator("#password-currentPassword-helper-text").innerText()).resolves.toBe(
        "Current password is required",
      );
    } finally {
      // back to Danish and light for the rest of the flow
      await profile.setPreferences({ language: "da", theme: "light" });
      await page.getByRole("heading", { name: "Min Profil", level: 1 }).waitFor();
      await page.waitForFunction((bg) => getComputedStyle(document.body).backgroundColor === bg, LIGHT_BG);
    }
  });

  it("should show the password-change validation messages of spec §5", async () => {
    const profile = new ProfilePage(page);
    const errorOf = (id: string) => page.locator(`#${id}-helper-text`).innerText();
    await profile.changePasswordButton().click();
    expect(await errorOf("password-currentPassword")).toBe("Nuværende adgangskode er påkrævet");
    expect(await errorOf("password-newPassword")).toBe("Ny adgangskode skal være mindst 6 tegn");
    expect(await errorOf("password-confirmPassword")).toBe("Bekræft ny adgangskode");
    await profile.changePassword(staff.password, newPassword, `${newPassword}x`);
    expect(await errorOf("password-confirmPassword")).toBe("Adgangskoderne matcher ikke");
  });

  it("should toggle each password field's visibility on its own", async () => {
    const profile = new ProfilePage(page);
    await profile.currentPassword().fill("abc");
    await page.getByRole("button", { name: "Vis nuværende adgangskode" }).click();
    await expect(profile.currentPassword().getAttribute("type")).resolves.toBe("text");
    await expect(profile.newPassword().getAttribute("type")).resolves.toBe("password");
    await expect(profile.confirmPassword().getAttribute("type")).resolves.toBe("password");
    await page.getByRole("button", { name: "Skjul nuværende adgangskode" }).click();
    await expect(profile.currentPassword().getAttribute("type")).resolves.toBe("password");
  });

  it("should refuse a wrong current password and then change the password, clearing the form", async () => {
    const profile = new ProfilePage(page);
    await profile.changePassword("forkert-password", newPassword);
    await toast.waitForTitle("Fejl ved ændring af adgangskode");
    // The pending label is recorded in the page, not held with a routed request: twice in full runs (official CI on
    // 1a5d5e1, stop 38's CI6) the ChangePassword request held and continued through page.route never got its answer
    // (the old password still signed in afterwards), while the server answered every change at once over REST
    const labels = await recordSubmitLabels(page, "password-title");
    await profile.changePassword(staff.password, newPassword);
    await toast.waitForTitle("Adgangskode opdateret");
    expect(await labels()).toContain("Ændrer adgangskode...");
    expect(await toast.text()).toContain("Din adgangskode er blevet ændret succesfuldt");
    for (const input of [profile.currentPassword(), profile.newPassword(), profile.confirmPassword()]) {
      await expect(input.inputValue()).resolves.toBe("");
    }
  });

  it("should keep the user signed in and say 'Logout fejlede' when the server call fails", async () => {
    await page.route("**/graphql", (route) =>
      route.request().postData()?.includes("Logout") ? route.abort("connectionfailed") : route.continue(),
    );
    const shell = new AppShell(page);
    await shell.logout();
    const text = await toast.waitForTitle("Logout fejlede");
    expect(text).toContain("Der opstod en fejl ved logout");
    // the token went first; the auth state stays (the cookie session is still valid)
    expect(await page.evaluate(() => localStorage.getItem("auth_token"))).toBeNull();
    expect(new URL(page.url()).pathname).toBe("/profile");
    await expect(shell.userName().isVisible()).resolves.toBe(true);
    await page.unroute("**/graphql");
  });

  it("should log out to /login, sign out other tabs, and protect pages again", async () => {
    const other = await context.newPage();
    await other.goto("/knowledge");
    await new AppShell(other).userName().waitFor();
    // a valid token in storage (the failed logout above removed the page's): the other tab checks its sign-in on
    // it, still signed in (a stale token here signed the other tab out by itself, whatever the logout did)
    const login = await rest(app, "POST", "/api/auth/login", {
      body: { email: staff.email, password: newPassword },
    });
    expect(login.status).toBe(200);
    let checked = meAnswered(other);
    await page.evaluate((t) => localStorage.setItem("auth_token", t), login.body.token as string);
    await checked;
    // the sign-out removes the token before it asks the server: its request is held until the other tab's check
    // on the removal has been answered (signed in, through the cookie), as can happen on a busy machine, and the tab
    // must check again once the server has ended the session (before the fix it stayed signed in: a failure seen
    // under load)
    const release = await holdOperation(page, "Logout");
    checked = meAnswered(other);
    await new AppShell(page).logout();
    await checked;
    await release();
    await page.waitForURL("**/login");
    await page.evaluate(() => localStorage.removeItem("auth_token"));
    await other.waitForURL("**/login", { timeout: 30_000 });
    await other.close();
    await page.goto("/profile");
    await page.waitForURL("**/login");
  });

  it("should refuse the old password and accept the new one", async () => {
    const login = await new LoginPage(page).goto();
    await login.login(staff.email, staff.password);
    const text = await toast.waitForTitle("Login fejlede");
    expect(text).toContain("Ugyldige login oplysninger");
    await login.password().fill(newPassword);
    await login.submit().click();
    // back to the page that sent the user to sign in (the protected /profile of the test before)
    await page.waitForURL((url) => url.pathname === "/profile");
    await expect(new AppShell(page).userName().innerText()).resolves.toBe(staff.name);
  });

  it("should fit a 360 px wide phone screen when signed in, with the links in a menu", async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    try {
      for (const [name, path] of [
        ["home", "/"],
        ["profile", "/profile"],
      ] as const) {
        await goInApp(page, path, READY[path]);
        await page.getByRole("heading", { level: 1 }).waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${path} overflows`).toBeLessThanOrEqual(0);
        // (axe at phone width: the tour's narrow walk, home and profile included)
        await screenshot(page, `${name}-mobile`);
      }
      await page.getByRole("button", { name: "Åbn menu" }).click();
      const menu = page.getByRole("menu");
      await menu.getByRole("menuitem", { name: "Vidensbank" }).click();
      await page.waitForURL("**/knowledge");
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });

  it("should show the admin link and role to the admin, and no environment badge", async () => {
    const adminContext = await newContext(browser, { baseURL: app.url });
    const adminPage = await adminContext.newPage();
    const login = await new LoginPage(adminPage).goto();
    await login.login(app.admin.email, app.admin.password);
    await adminPage.waitForURL((url) => url.pathname === "/");
    const shell = new AppShell(adminPage);
    await shell.userName().waitFor();
    expect(await shell.navLinkNames()).toEqual(["Hjem", "Vidensbank", "Min Profil", "Admin"]);
    await adminPage.getByRole("link", { name: "Admin", exact: true }).click();
    await adminPage.getByRole("heading", { name: "Admin Panel" }).waitFor();
    await goInApp(adminPage, "/profile", READY["/profile"]);
    await expect(new ProfilePage(adminPage).account("role").innerText()).resolves.toBe("Administrator");
    await expect(shell.envBadge().count()).resolves.toBe(0);
    await adminContext.close();
  });

  it("should send a non-admin away from /admin and /admin/notion to /", async () => {
    // (the page is on /knowledge: the test before)
    for (const path of ["/admin", "/admin/notion"]) {
      await goInApp(page, path, READY["/"]);
      await page.waitForURL((url) => url.pathname === "/");
      if (path === "/admin") await goInApp(page, "/knowledge", READY["/knowledge"]);
    }
  });
});

/** The page's next answer to its sign-in check (the Me query). */
function meAnswered(page: Page) {
  return page.waitForResponse(
    (r) => r.url().endsWith("/graphql") && r.request().postDataJSON()?.operationName === "Me",
  );
}

/**
 * Records every label the submit button of the form labelled by `titleId` shows from now on: a pending label
 * shows however short the request, with nothing held or timed.
 */
function recordSubmitLabels(page: Page, titleId: string) {
  return recordInPage(
    page,
    (id) => document.querySelector(`form[aria-labelledby="${id}"] button[type=submit]`)?.textContent ?? "",
    titleId,
  );
}
