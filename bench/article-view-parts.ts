/**
 * CPU of an article view's app-side parts (GraphQL `knowledgeArticle`, a third of the 400-user mix's browse
 * actions), old way vs new, alternating view by view in this process against the embedded store in its own
 * process (so the figures are this process's, the driver's included, not the store's):
 *   npx tsx bench/article-view-parts.ts [--ops 1000] [--rounds 3]
 * - before (perf17): the article read as a mongoose document (findById, then toObject) and a user document
 *   hydrated from the auth cache's lean copy, only for the id in an error log line;
 * - after: the article read lean (as the catalogue reads it) and the cached identity.
 * Both make the same ArticleView (checked on every op).
 */
import { isDeepStrictEqual } from "node:util";
import mongoose from "mongoose";
import { loadConfig } from "../api/src/config";
import { openDatabase } from "../api/src/db/connection";
import { ArticleModel, type ArticleRecord } from "../api/src/knowledge/article.model";
import { toView } from "../api/src/knowledge/knowledge.catalog";
import { startStoreProcess } from "../api/src/testing/processes";
import { UserModel } from "../api/src/users/user.model";
import { arg } from "./load";

const OPS = arg("ops", 1000);
const ROUNDS = arg("rounds", 3);

const lean: Record<string, unknown> = {
  _id: new mongoose.Types.ObjectId(),
  email: "anna@example.dk",
  username: "anna",
  usernameKey: "anna",
  passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$abc$def",
  name: "Anna",
  role: "user",
  verified: true,
  lastLogin: new Date(),
  createdAt: new Date(),
  updatedAt: new Date(),
  __v: 0,
};

/** the auth service's per-request user document (auth.service.ts hydrateUser) */
function hydrated() {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(lean)) {
    const value = lean[key];
    copy[key] = value instanceof Date ? new Date(value.getTime()) : value;
  }
  return UserModel.hydrate(copy);
}

async function main(): Promise<void> {
  const store = await startStoreProcess();
  const config = loadConfig({ ...process.env, MONGODB_URI: store.first, NODE_ENV: "test" });
  const db = await openDatabase(config, { role: "client" });
  try {
    const paragraph = "Klagefristen er fire uger fra den dag, afgørelsen er modtaget. ".repeat(8);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const doc = await ArticleModel.create({
        title: `Artikel ${i}`,
        content: Array.from({ length: 12 }, (_, j) => `## Afsnit ${j}\n\n${paragraph}`).join("\n\n"),
        category: "Regler",
        tags: ["klage", "frist"],
        sourceId: `bench-${i}`,
        contentHash: `h${i}`,
      });
      ids.push(String(doc._id));
    }
    const before = async (i: number) => {
      const doc = await ArticleModel.findById(ids[i % ids.length]);
      if (!doc) throw new Error("missing");
      const view = toView(doc.toObject() as ArticleRecord);
      String(hydrated()._id);
      return view;
    };
    const after = async (i: number) => {
      const doc = (await ArticleModel.findById(ids[i % ids.length]).lean()) as ArticleRecord | null;
      if (!doc) throw new Error("missing");
      const view = toView(doc);
      String(lean._id);
      return view;
    };
    for (let i = 0; i < 200; i++) {
      const [a, b] = [await before(i), await after(i)];
      if (!isDeepStrictEqual(a, b)) throw new Error(`views differ: ${JSON.stringify([a, b])}`);
    }
    for (let round = 0; round < ROUNDS; round++) {
      const used = [0, 0];
      for (let i = 0; i < OPS * 2; i++) {
        const w = i % 2;
        const t = process.cpuUsage();
        await (w === 0 ? before : after)(i >> 1);
        const d = process.cpuUsage(t);
        used[w] += d.user + d.system;
      }
      console.log(
        `round ${round + 1}: article view, app side  before ${(used[0] / OPS).toFixed(0)} µs  after ${(used[1] / OPS).toFixed(0)} µs`,
      );
    }
  } finally {
    await db.close();
    await store.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
