/**
 * knowledge_articles collection (spec §3) plus where each article came from: `source` + `sourceId` identify
 * it in its origin (a local file's relative path, a Notion page id) and are the idempotency key of imports;
 * `contentHash` tells an import whether anything changed.
 */
import mongoose, { type HydratedDocument, type InferSchemaType, Schema } from "mongoose";

export const ARTICLE_SOURCES = ["local", "notion"] as const;
export type ArticleSource = (typeof ARTICLE_SOURCES)[number];

const articleSchema = new Schema(
  {
    title: { type: String, required: true },
    content: { type: String, required: true },
    category: { type: String, required: true },
    subcategory: { type: String, default: null },
    tags: { type: [String], default: [] },
    source: { type: String, enum: ARTICLE_SOURCES, required: true, default: "local" },
    sourceId: { type: String, required: true },
    sourceUrl: { type: String, default: null },
    /** the Notion database (data source) title a notion article came from */
    sourceDatabase: { type: String, default: null },
    /** a Notion page's headings and their block ids (citation anchors) */
    sourceAnchors: { type: [{ _id: false, heading: String, blockId: String }], default: [] },
    contentHash: { type: String, required: true },
  },
  { collection: "knowledge_articles", timestamps: true },
);
articleSchema.index({ source: 1, sourceId: 1 }, { unique: true });
articleSchema.index({ category: 1 });
// the change check reads the newest updatedAt
articleSchema.index({ updatedAt: -1 });

export type ArticleFields = InferSchemaType<typeof articleSchema>;
export type ArticleDoc = HydratedDocument<ArticleFields>;
/** A lean article as read from the store. */
export type ArticleRecord = ArticleFields & {
  _id: mongoose.Types.ObjectId;
  createdAt: Date;
  updatedAt: Date;
};

export const ArticleModel = mongoose.model("KnowledgeArticle", articleSchema);
