/** Ordered map used by indexes: the B+tree of `sorted-btree`, keyed by canonical key strings. */

import type BTreeType from "sorted-btree";
import BTreeModule from "sorted-btree";

// sorted-btree is CommonJS with `exports.default`; depending on the loader the class is the default import or
// its `.default`.
const BTreeCtor = ((BTreeModule as unknown as { default?: typeof BTreeType }).default ??
  BTreeModule) as typeof BTreeType;

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export type KeyTree<V> = BTreeType<string, V>;

export function newKeyTree<V>(): KeyTree<V> {
  return new BTreeCtor<string, V>(undefined, cmp, 64);
}
