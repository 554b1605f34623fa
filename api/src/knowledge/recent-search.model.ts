/** recent_searches collection (spec §3): a signed-in user's searches; the last RECENT_SEARCHES_KEPT are kept. */
import mongoose, { Schema } from "mongoose";

const recentSearchSchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    query: { type: String, required: true },
    timestamp: { type: Date, required: true, default: () => new Date() },
  },
  { collection: "recent_searches", versionKey: false },
);
recentSearchSchema.index({ userId: 1, timestamp: -1 });
recentSearchSchema.index({ userId: 1, query: 1 }, { unique: true });

export const RecentSearchModel = mongoose.model("RecentSearch", recentSearchSchema);
