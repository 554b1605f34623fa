import { startTestApp, type TestApp, type TestAppOptions } from "@vidensbank/api/testing/app";
import type { Browser, BrowserContext } from "playwright-core";
import { inject } from "vitest";

/** The real server (in-memory embedded store, SMTP capture) serving the web build from globalSetup. */
export function startServer(opts: Omit<TestAppOptions, "webDist"> = {}): Promise<TestApp> {
  return startTestApp({ ...opts, webDist: inject("webDist") });
}

/** A chat file's teardown: its browser contexts and browser, then the server once its answers have ended. */
export async function stopChatFile(
  app: TestApp | undefined,
  browser: Browser | undefined,
  contexts: readonly BrowserContext[] = [],
): Promise<void> {
  for (const c of contexts) await c.close();
  await browser?.close();
  await app?.services.chat.whenIdle();
  await app?.close();
}

let seq = 0;

/** A unique, valid staff account for one test. */
export function newStaff(prefix: string) {
  const id = `${prefix}${Date.now().toString(36)}${seq++}`;
  return {
    name: "Karen Holm Jensen",
    email: `${id}@minksekretariatet.dk`,
    username: id,
    password: "hemmeligt-1",
  };
}

/** The first link in a captured e-mail whose path starts with `pathname`, made relative for the browser. */
export function linkIn(mail: { links: string[] }, pathname: string): string {
  const link = mail.links.find((l) => new URL(l).pathname === pathname);
  if (!link) throw new Error(`no ${pathname} link in mail: ${mail.links.join(", ")}`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}
