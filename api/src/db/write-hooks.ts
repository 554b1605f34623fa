/**
 * Run a callback around every write through a schema's model (a cache that must not outlive the data it
 * copies). Both before (a read running while the write happens can tell) and after (nothing read before the
 * write survives it), also when the write fails half-way. `inserts`: whether inserts count.
 */
import type { Schema } from "mongoose";

const QUERY_WRITES = [
  "updateOne",
  "updateMany",
  "replaceOne",
  "findOneAndUpdate",
  "findOneAndReplace",
  "findOneAndDelete",
  "deleteOne",
  "deleteMany",
] as const;

export function onEveryWrite(schema: Schema, opts: { inserts: boolean }, callback: () => void): void {
  const clear = () => callback();
  for (const op of QUERY_WRITES) {
    schema.pre(op, { query: true, document: true }, clear);
    schema.post(op, { query: true, document: true }, clear);
  }
  schema.pre("bulkWrite", clear);
  schema.post("bulkWrite", clear);
  if (opts.inserts) {
    schema.pre("save", clear);
    schema.post("save", clear);
    schema.pre("insertMany", clear);
    schema.post("insertMany", clear);
  } else {
    // save() of an existing document is an update (after the save, isNew is false either way: remember it)
    schema.pre("save", function (this: { isNew: boolean; $locals: Record<string, unknown> }) {
      this.$locals.writeHookUpdate = !this.isNew;
      if (!this.isNew) clear();
    });
    schema.post("save", function (this: { $locals: Record<string, unknown> }) {
      if (this.$locals.writeHookUpdate) clear();
    });
  }
}
