/** user_bookmarks collection (spec §3): one document per user and article (unique), removed with either. */
import mongoose, { Schema } from "mongoose";

const bookmarkSchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    articleId: { type: Schema.Types.ObjectId, required: true },
    articleTitle: { type: String, required: true },
    bookmarkedAt: { type: Date, required: true, default: () => new Date() },
  },
  { collection: "user_bookmarks", versionKey: false },
);
bookmarkSchema.index({ userId: 1, articleId: 1 }, { unique: true });
bookmarkSchema.index({ articleId: 1 });

export const BookmarkModel = mongoose.model("Bookmark", bookmarkSchema);
