import { describe, expect, it } from "vitest";
import { PlaceTreeCache } from "./chat.place-cache";
import { MessageTree, type TreeMessage } from "./chat.tree";

/** a linear session of `n` places, ids `${prefix}0`… */
function tree(prefix: string, n: number): MessageTree<TreeMessage> {
  const docs = Array.from({ length: n }, (_, i) => ({
    _id: `${prefix}${i}`,
    parentId: i === 0 ? null : `${prefix}${i - 1}`,
    timestamp: new Date(1_000 * i),
  }));
  return new MessageTree(docs);
}

describe("chat: the place trees kept in the process", () => {
  it("should keep a tree for its version and shown leaf, and read again when either is not in it", async () => {
    const cache = new PlaceTreeCache(100, 2);
    let reads = 0;
    const load = (t: MessageTree<TreeMessage>) => async () => {
      reads++;
      return t;
    };
    const first = tree("a", 5);
    expect(await cache.tree("u", "s", { placeVersion: 1, activeLeafId: "a4" }, load(first))).toBe(first);
    expect(await cache.tree("u", "s", { placeVersion: 1, activeLeafId: "a4" }, load(tree("x", 5)))).toBe(
      first,
    );
    expect(reads).toBe(1);
    // another process counted added messages
    const second = tree("a", 6);
    expect(await cache.tree("u", "s", { placeVersion: 2, activeLeafId: "a4" }, load(second))).toBe(second);
    // the shown leaf is not in the kept tree (a send's count lost)
    const third = tree("a", 7);
    expect(await cache.tree("u", "s", { placeVersion: 2, activeLeafId: "a6" }, load(third))).toBe(third);
    // another user's key is another entry
    expect(await cache.tree("v", "s", { placeVersion: 2 }, load(tree("b", 3)))).not.toBe(third);
    expect(reads).toBe(4);
  });

  it("should keep at most maxPlaces in all, the least recently used going first, and no short session", async () => {
    const cache = new PlaceTreeCache(10, 3);
    let reads = 0;
    const open = (id: string, n: number) =>
      cache.tree("u", id, {}, async () => {
        reads++;
        return tree(id, n);
      });
    await open("short", 2);
    await open("short", 2);
    expect(reads).toBe(2); // under the minimum: read each time
    await open("a", 4);
    await open("b", 4);
    await open("a", 4); // a is now the most recently used
    expect(reads).toBe(4);
    await open("c", 4); // 12 places: b goes
    await open("a", 4);
    await open("c", 4);
    expect(reads).toBe(5);
    await open("b", 4);
    expect(reads).toBe(6);
    await open("big", 11); // over the bound alone: not kept
    await open("big", 11);
    expect(reads).toBe(8);
  });
});
