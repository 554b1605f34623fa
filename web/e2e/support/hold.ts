import type { Page, Route } from "playwright-core";

/**
 * Holds one GraphQL operation's requests back until `release()` (the real server then answers them), so a pending
 * state stays on screen until the test has seen it: no fixed delay to race against a slow or busy machine.
 */
export function holdOperation(page: Page, operationName: string): Promise<() => Promise<void>> {
  return hold(page, operationName, async (route, released) => {
    await released;
    await route.continue();
  });
}

/**
 * Lets one GraphQL operation's requests reach the server but holds their responses back until `release()`: the
 * server has done its work (and sent its live events over the websocket) while the page still waits for the
 * mutation to answer, as on a slow network.
 */
export function holdResponse(page: Page, operationName: string): Promise<() => Promise<void>> {
  return hold(page, operationName, async (route, released) => {
    const response = await route.fetch();
    await released;
    await route.fulfill({ response });
  });
}

/**
 * Routes `operationName`'s requests through `pass` (the others go on). release() waits until one of them has reached
 * the route (the page may show its pending state before its request has been intercepted and handed to the test),
 * lets them finish, then removes this route only (a bare `page.unroute(url)` removes every route of the URL). Before,
 * a release called while the request was still on its way found nothing held and removed the route under it: the
 * request then met no handler (Playwright's fallback) after the page's interception had been switched off.
 */
async function hold(
  page: Page,
  operationName: string,
  pass: (route: Route, released: Promise<void>) => Promise<void>,
): Promise<() => Promise<void>> {
  let release = () => {};
  const released = new Promise<void>((r) => {
    release = r;
  });
  let arrived = () => {};
  const first = new Promise<void>((r) => {
    arrived = r;
  });
  const held: Array<Promise<void>> = [];
  const handler = (route: Route) => {
    if (route.request().postDataJSON()?.operationName !== operationName) return route.continue();
    const passed = pass(route, released);
    held.push(passed);
    arrived();
    return passed;
  };
  await page.route("**/graphql", handler);
  return async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no ${operationName} request reached its hold`)), 20_000);
    });
    try {
      await Promise.race([first, late]);
    } finally {
      clearTimeout(timer);
    }
    release();
    await Promise.all(held); // the held requests went on before the route goes
    await page.unroute("**/graphql", handler);
  };
}
