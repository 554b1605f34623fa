/**
 * Article changes from the store's change stream (several API processes over one store): each inserted,
 * updated, replaced or deleted article is synced into this process's catalog (knowledge.catalog.ts
 * syncArticle); when the stream could not resume, the catalog compares itself with the store at the next read.
 */
import { type ChangeFeed, openChangeFeed } from "../events/change-feed";
import { logger } from "../logger";
import { ArticleModel } from "./article.model";
import type { KnowledgeCatalog } from "./knowledge.catalog";

const KINDS = ["insert", "update", "replace", "delete"];

export function watchArticles(catalog: KnowledgeCatalog): ChangeFeed {
  return openChangeFeed({
    collection: ArticleModel.collection.collectionName,
    // only which article changed: the catalog reads it (a change can be its own, already in memory)
    pipeline: [
      { $match: { operationType: { $in: KINDS } } },
      { $project: { operationType: 1, documentKey: 1 } },
    ],
    onChange: (change) => {
      if (!("documentKey" in change) || !change.documentKey) return;
      const id = String((change.documentKey as { _id: unknown })._id);
      // queued in the catalog's own order (exclusive()); not awaited, so the stream reads on
      catalog.syncArticle(id).catch((err) => logger.warn({ err, id }, "article change not followed"));
    },
    onResync: () => catalog.markStale(),
  });
}
