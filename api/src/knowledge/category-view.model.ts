/** category_views collection: how often articles of each category were opened ('Populære kategorier'). */
import mongoose, { Schema } from "mongoose";

const categoryViewSchema = new Schema(
  {
    category: { type: String, required: true, unique: true },
    views: { type: Number, required: true, default: 0 },
    lastViewedAt: { type: Date, default: null },
  },
  { collection: "category_views", versionKey: false },
);

export const CategoryViewModel = mongoose.model("CategoryView", categoryViewSchema);
