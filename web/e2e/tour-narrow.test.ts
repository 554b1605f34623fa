// The walk over every screen at 390 px, light, in Danish (support/tour.ts), and the phone-only parts in dark.
import { expect, it } from "vitest";
import { expectAccessible } from "./support/axe";
import { BODY_BACKGROUND, bodyBackground } from "./support/browser";
import { inspect, open, staffToken, VARIANTS, walkEveryScreen } from "./support/tour";

walkEveryScreen(VARIANTS.narrow);

// What only a phone shows (the sessions drawer, the header's menu) in the dark palette: the desktop dark walk
// never opens them, and the narrow walk above sees them in light.
it("should show the sessions drawer and the header menu at 390 px in dark without axe violations", async () => {
  const variant = { ...VARIANTS.narrow, name: "narrow-dark", theme: "dark" } as const;
  const page = await open(variant, staffToken);
  await page.goto("/");
  await page.getByTestId("chat-input").waitFor();
  expect(await bodyBackground(page)).toBe(BODY_BACKGROUND.dark);
  await page.getByRole("button", { name: "Vis samtaler" }).click();
  await page.getByTestId("session-item").first().waitFor();
  await inspect(page, variant, "chat-sidebar");
  await page.keyboard.press("Escape");
  await page.locator(".MuiBackdrop-root").first().waitFor({ state: "hidden" });
  await page.getByRole("button", { name: "Åbn menu" }).click();
  await page.getByRole("menu").getByRole("menuitem").first().waitFor();
  await expectAccessible(page, "header menu (narrow-dark)");
}, 180_000);
