/** For tests of held values: whether `p` has settled once the current turn's work (and its immediates) is done. */
export async function settledNow<T>(p: Promise<T>): Promise<boolean> {
  let settled = false;
  void p.then(() => {
    settled = true;
  });
  await new Promise((r) => setImmediate(r));
  return settled;
}
