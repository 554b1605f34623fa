/**
 * A user's bookmarks of knowledge articles (user_bookmarks). One bookmark per user and article (a unique
 * index): adding an article that is already bookmarked is idempotent and returns the existing bookmark
 * (`created: false`). Each user sees and changes only their own. A deleted article's bookmarks are removed,
 * and a renamed article's bookmarks follow its title, through the knowledge hooks wired in services.ts; a
 * user's are removed with the user (users service).
 */
import mongoose from "mongoose";
import { recordActivity } from "../activity/activity.service";
import { isObjectIdString, toObjectId } from "../db/ids";
import { countPerUser } from "../db/per-user";
import { Errors } from "../errors";
import { findArticleRef } from "../knowledge/articles.service";
import type { UserDoc } from "../users/user.model";
import { BookmarkModel } from "./bookmark.model";

export interface BookmarkView {
  id: string;
  articleId: string;
  articleTitle: string;
  bookmarkedAt: Date;
}

interface BookmarkRow {
  _id: mongoose.Types.ObjectId;
  articleId: mongoose.Types.ObjectId;
  articleTitle: string;
  bookmarkedAt: Date;
}

function present(b: BookmarkRow): BookmarkView {
  return {
    id: String(b._id),
    articleId: String(b.articleId),
    articleTitle: b.articleTitle,
    bookmarkedAt: b.bookmarkedAt,
  };
}

function isDuplicateKey(err: unknown): boolean {
  return (err as { code?: number })?.code === 11000;
}

/** The user's bookmarks, newest first. */
export async function listBookmarks(user: UserDoc): Promise<BookmarkView[]> {
  const rows = await BookmarkModel.find({ userId: user._id }).sort({ bookmarkedAt: -1, _id: -1 }).lean();
  return rows.map((r) => present(r as BookmarkRow));
}

/** The ids of the articles the user has bookmarked (the chat's "Mine bogmærker" scope). */
export async function bookmarkedArticleIds(userId: string): Promise<string[]> {
  if (!mongoose.isValidObjectId(userId)) return [];
  const rows = await BookmarkModel.find({ userId }, { articleId: 1 }).lean();
  return rows.map((r) => String(r.articleId));
}

/**
 * Bookmark an article for the user (logged as `bookmark`). NOT_FOUND for an unknown article; bookmarking it
 * again returns the existing bookmark with `created: false` and logs nothing.
 */
export async function addBookmark(
  user: UserDoc,
  articleId: unknown,
): Promise<{ bookmark: BookmarkView; created: boolean }> {
  if (typeof articleId !== "string" || !articleId.trim()) {
    throw Errors.invalidField("articleId", "bookmarks.articleRequired");
  }
  const article = await findArticleRef(articleId.trim());
  if (!article) throw Errors.notFound("knowledge.notFound");
  const existing = await BookmarkModel.findOne({ userId: user._id, articleId: article.id }).lean();
  if (existing) return { bookmark: present(existing as BookmarkRow), created: false };
  let created: BookmarkRow;
  try {
    const doc = await BookmarkModel.create({
      userId: user._id,
      articleId: article.id,
      articleTitle: article.title,
      bookmarkedAt: new Date(),
    });
    created = doc.toObject() as BookmarkRow;
  } catch (err) {
    // a double click raced us to the unique index: the bookmark exists, which is what was asked
    if (!isDuplicateKey(err)) throw err;
    const raced = await BookmarkModel.findOne({ userId: user._id, articleId: article.id }).lean();
    if (!raced) throw err;
    return { bookmark: present(raced as BookmarkRow), created: false };
  }
  await recordActivity({
    action: "bookmark",
    message: { key: "log.bookmarkAdded", params: { name: user.name, title: article.title } },
    userEmail: user.email,
    userId: String(user._id),
    metadata: { articleId: String(article.id), articleTitle: article.title, added: true },
  });
  return { bookmark: present(created), created: true };
}

/** Remove the user's bookmark of an article (logged as `bookmark`). NOT_FOUND when they have none. */
export async function removeBookmark(user: UserDoc, articleId: unknown): Promise<void> {
  if (!isObjectIdString(articleId)) throw Errors.notFound("bookmarks.notBookmarked");
  const doc = await BookmarkModel.findOneAndDelete({
    userId: user._id,
    articleId: new mongoose.Types.ObjectId(articleId),
  }).lean();
  if (!doc) throw Errors.notFound("bookmarks.notBookmarked");
  await recordActivity({
    action: "bookmark",
    message: { key: "log.bookmarkRemoved", params: { name: user.name, title: doc.articleTitle } },
    userEmail: user.email,
    userId: String(user._id),
    metadata: { articleId, articleTitle: doc.articleTitle, added: false },
  });
}

/** Whether the user has bookmarked the article (the article view's bookmark button). */
export async function isBookmarked(user: UserDoc, articleId: string): Promise<boolean> {
  if (!isObjectIdString(articleId)) return false;
  return (
    (await BookmarkModel.exists({ userId: user._id, articleId: new mongoose.Types.ObjectId(articleId) })) !==
    null
  );
}

/** Number of bookmarks of all users (admin statistics: 'Bogmærker'). */
export function countBookmarks(): Promise<number> {
  return BookmarkModel.countDocuments({});
}

/** Bookmarks per user id (the admin's user list). */
export function bookmarkCountsByUser(): Promise<Map<string, number>> {
  return countPerUser(BookmarkModel as never);
}

/** A user is being deleted (users hook): their bookmarks go. */
export async function removeBookmarksOfUser(userId: string): Promise<void> {
  const id = toObjectId(userId);
  if (id) await BookmarkModel.deleteMany({ userId: id });
}

/** An article was deleted (knowledge hook): its bookmarks go with it, for every user. */
export async function removeBookmarksOfArticle(articleId: string): Promise<void> {
  if (!isObjectIdString(articleId)) return;
  await BookmarkModel.deleteMany({ articleId: new mongoose.Types.ObjectId(articleId) });
}

/** An article's title changed (knowledge hook): its bookmarks show the new title. */
export async function renameBookmarkedArticle(articleId: string, title: string): Promise<void> {
  if (!isObjectIdString(articleId)) return;
  await BookmarkModel.updateMany(
    { articleId: new mongoose.Types.ObjectId(articleId) },
    { $set: { articleTitle: title } },
  );
}
