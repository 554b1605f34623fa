import mongoose, { type Connection, type Model, Schema, type Types } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTarget, type Target } from "./harness";

let target: Target;
let conn: Connection;

interface User {
  email: string;
  name: string;
  roles: string[];
  logins: number;
  createdAt?: Date;
}
interface Post {
  title: string;
  author: Types.ObjectId;
  tags: string[];
  views: number;
}

const userSchema = new Schema<User>(
  {
    email: { type: String, required: true, unique: true, lowercase: true },
    name: { type: String, required: true },
    roles: { type: [String], default: [] },
    logins: { type: Number, default: 0 },
  },
  { timestamps: true },
);
const postSchema = new Schema<Post>({
  title: { type: String, required: true },
  author: { type: Schema.Types.ObjectId, ref: "User", required: true, index: true },
  tags: [String],
  views: { type: Number, default: 0 },
});

beforeAll(async () => {
  target = await openTarget("mongoose");
  conn = await mongoose.createConnection(target.uri, { dbName: target.dbName }).asPromise();
  UserModel = conn.model<User>("User", userSchema);
  PostModel = conn.model<Post>("Post", postSchema);
});
afterAll(async () => {
  await conn?.close();
  await target?.close();
});

let UserModel: Model<User>;
let PostModel: Model<Post>;
const User = () => UserModel;
const Post = () => PostModel;

describe("mongoose 9 over the store", () => {
  it("should init models: create the collections and their indexes", async () => {
    await User().init();
    await Post().init();
    const names = (await conn.db!.listCollections().toArray()).map((c) => c.name).sort();
    expect(names).toEqual(expect.arrayContaining(["posts", "users"]));
    const indexes = await User().listIndexes();
    expect(indexes.find((i) => i.name === "email_1")).toMatchObject({ unique: true, key: { email: 1 } });
    expect((await Post().listIndexes()).map((i) => i.name)).toContain("author_1");
    // a second init (another process starting) is harmless
    await expect(conn.db!.createCollection("users")).rejects.toMatchObject({ code: 48 });
    await User().syncIndexes();
  });

  it("should create, find, update and delete documents", async () => {
    const anna = await User().create({ email: "Anna@Example.dk", name: "Anna" });
    expect(anna.email).toBe("anna@example.dk");
    expect(anna.createdAt).toBeInstanceOf(Date);
    const found = await User().findOne({ email: "anna@example.dk" }).lean<User & { _id: Types.ObjectId }>();
    expect(found?._id.equals(anna._id)).toBe(true);
    expect((await User().findById(anna._id))?.name).toBe("Anna");
    await User().updateOne({ _id: anna._id }, { $inc: { logins: 2 } });
    anna.name = "Anna B";
    await anna.save();
    const reloaded = await User().findById(anna._id).lean<User>();
    expect(reloaded).toMatchObject({ name: "Anna B", logins: 2 });
    const deleted = await User().deleteOne({ _id: anna._id });
    expect(deleted.deletedCount).toBe(1);
    expect(await User().countDocuments()).toBe(0);
  });

  it("should raise MongoDB's duplicate key error for a unique path", async () => {
    await User().create({ email: "dup@example.dk", name: "One" });
    const err = (await User()
      .create({ email: "DUP@example.dk", name: "Two" })
      .catch((e: unknown) => e)) as { code?: number; keyValue?: unknown; keyPattern?: unknown };
    expect(err.code).toBe(11000);
    expect(err.keyPattern).toEqual({ email: 1 });
    expect(err.keyValue).toEqual({ email: "dup@example.dk" });
  });

  it("should upsert with findOneAndUpdate and $setOnInsert", async () => {
    const first = await User()
      .findOneAndUpdate(
        { email: "upsert@example.dk" },
        { $setOnInsert: { name: "Ny", roles: ["reader"] }, $inc: { logins: 1 } },
        { upsert: true, returnDocument: "after" },
      )
      .lean<User>();
    expect(first).toMatchObject({ email: "upsert@example.dk", name: "Ny", roles: ["reader"], logins: 1 });
    const second = await User()
      .findOneAndUpdate(
        { email: "upsert@example.dk" },
        { $setOnInsert: { name: "Ignored" }, $inc: { logins: 1 } },
        { upsert: true, returnDocument: "after" },
      )
      .lean<User>();
    expect(second).toMatchObject({ name: "Ny", logins: 2 });
    expect(await User().countDocuments({ email: "upsert@example.dk" })).toBe(1);
  });

  it("should $push and $pull array members", async () => {
    const u = await User().create({ email: "arrays@example.dk", name: "Arr", roles: ["a"] });
    await User().updateOne({ _id: u._id }, { $push: { roles: { $each: ["b", "c"] } } });
    await User().updateOne({ _id: u._id }, { $pull: { roles: "a" } });
    await User().updateOne({ _id: u._id }, { $addToSet: { roles: "b" } });
    expect((await User().findById(u._id).lean<User>())?.roles).toEqual(["b", "c"]);
  });

  it("should populate references", async () => {
    const author = await User().create({ email: "author@example.dk", name: "Forfatter" });
    await Post().create([
      { title: "Første", author: author._id, tags: ["x"], views: 3 },
      { title: "Anden", author: author._id, tags: ["x", "y"], views: 5 },
    ]);
    const posts = await Post()
      .find({ author: author._id })
      .sort({ title: 1 })
      .populate<{ author: User }>("author")
      .lean();
    expect(posts.map((p) => p.title)).toEqual(["Anden", "Første"]);
    expect(posts[0].author.name).toBe("Forfatter");
  });

  it("should aggregate with $lookup and $group, countDocuments and distinct", async () => {
    const groups = await Post().aggregate<{ _id: string; posts: number; views: number; authorName: string }>([
      { $group: { _id: "$author", posts: { $sum: 1 }, views: { $sum: "$views" } } },
      { $lookup: { from: "users", localField: "_id", foreignField: "_id", as: "a" } },
      { $project: { posts: 1, views: 1, authorName: { $first: "$a.name" } } },
    ]);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ posts: 2, views: 8, authorName: "Forfatter" });
    expect(await Post().countDocuments({ tags: "y" })).toBe(1);
    expect((await Post().distinct("tags")).sort()).toEqual(["x", "y"]);
    expect(await Post().estimatedDocumentCount()).toBe(2);
  });

  it("should run bulkWrite ordered and unordered", async () => {
    const res = await User().bulkWrite([
      { insertOne: { document: { email: "bulk1@example.dk", name: "B1" } } },
      { updateOne: { filter: { email: "bulk1@example.dk" }, update: { $set: { name: "B1x" } } } },
      { deleteOne: { filter: { email: "nobody@example.dk" } } },
    ]);
    expect(res.insertedCount).toBe(1);
    expect(res.modifiedCount).toBe(1);
    const err = (await User()
      .bulkWrite(
        [
          { insertOne: { document: { email: "bulk1@example.dk", name: "dup" } } },
          { insertOne: { document: { email: "bulk2@example.dk", name: "B2" } } },
        ],
        { ordered: false },
      )
      .catch((e: unknown) => e)) as {
      code?: number;
      insertedCount?: number;
      result?: { insertedCount: number };
    };
    expect(err.code).toBe(11000);
    expect(await User().countDocuments({ email: /^bulk/ })).toBe(2);
    const many = await User()
      .insertMany(
        [
          { email: "m1@example.dk", name: "M1" },
          { email: "bulk2@example.dk", name: "dup" },
          { email: "m2@example.dk", name: "M2" },
        ],
        { ordered: false },
      )
      .catch((e: unknown) => e as { insertedDocs: unknown[] });
    expect(
      Array.isArray(many) ? many.length : (many as { insertedDocs: unknown[] }).insertedDocs.length,
    ).toBe(2);
  });
});
