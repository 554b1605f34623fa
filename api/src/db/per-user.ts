/** Per-user figures over a feature's own collection (the admin's user list asks each feature for its counts). */
import type mongoose from "mongoose";

/** Documents per userId (the id as a hex string → count). */
export async function countPerUser(model: mongoose.Model<never>): Promise<Map<string, number>> {
  const rows = await model.aggregate<{ _id: unknown; n: number }>([
    { $group: { _id: "$userId", n: { $sum: 1 } } },
  ]);
  return new Map(rows.map((r) => [String(r._id), r.n]));
}
