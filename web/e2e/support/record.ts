import type { Page } from "playwright-core";

let recorders = 0;

/**
 * Records in the page, from now on, every value `sample(arg)` takes after a change of the document (a
 * MutationObserver: it sees states that last a few milliseconds, which a wait from the test can miss on a busy
 * machine, with nothing held or timed). A value equal to the one before is not recorded again, nor `undefined`
 * (nothing to see). `sample` runs in the page: it can use only its argument (JSON), not the test's variables.
 * Returns a function that reads the values recorded so far.
 */
export async function recordInPage<T, A = undefined>(
  page: Page,
  sample: (arg: A) => T | undefined,
  arg?: A,
): Promise<() => Promise<T[]>> {
  const key = `__recorded${recorders++}`;
  // one script as text (evaluate's function form cannot take a function argument)
  await page.evaluate(`(() => {
    const sample = ${sample.toString()};
    const arg = ${JSON.stringify(arg ?? null)};
    const seen = (window[${JSON.stringify(key)}] = []);
    const note = () => {
      const value = sample(arg);
      if (value !== undefined && JSON.stringify(value) !== JSON.stringify(seen[seen.length - 1])) seen.push(value);
    };
    note();
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  })()`);
  return () => page.evaluate((k) => (window as unknown as Record<string, T[]>)[k] as T[], key);
}
