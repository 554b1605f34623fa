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

/** Routes `operationName`'s requests through `pass` (the others go on); release() lets them finish, then unroutes. */
async function hold(
  page: Page,
  operationName: string,
  pass: (route: Route, released: Promise<void>) => Promise<void>,
): Promise<() => Promise<void>> {
  let release = () => {};
  const released = new Promise<void>((r) => {
    release = r;
  });
  const held: Array<Promise<void>> = [];
  await page.route("**/graphql", (route) => {
    if (route.request().postDataJSON()?.operationName !== operationName) return route.continue();
    const passed = pass(route, released);
    held.push(passed);
    return passed;
  });
  return async () => {
    release();
    await Promise.all(held); // the held requests went on before the route goes
    await page.unroute("**/graphql");
  };
}
