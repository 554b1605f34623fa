/**
 * REST compatibility routes (spec §7): GET /api/knowledge = { [category]: article[] } with the fields the
 * knowledge page reads; plus GET /api/knowledge/search?q=&category= for REST clients. Sign-in required.
 */
import { createHash } from "node:crypto";
import { Router } from "express";
import { requireUser, signedIn } from "../rest/auth-middleware";
import { readQueryString } from "../rest/validate";
import type { Services } from "../services";
import { presentArticle } from "./article.presenter";

export function knowledgeRestRouter(services: Services): Router {
  const r = Router();
  // The grouped listing is the same bytes until an article changes: serialise (and tag) once per version.
  let cached: { version: number; body: Buffer; etag: string } | null = null;

  r.get("/knowledge", requireUser, async (_req, res) => {
    const { version, groups } = await services.knowledge.articlesByCategory();
    if (cached?.version !== version) {
      const out: Record<string, ReturnType<typeof presentArticle>[]> = {};
      for (const [category, articles] of groups) out[category] = articles.map(presentArticle);
      const body = Buffer.from(JSON.stringify(out));
      cached = { version, body, etag: `W/"${createHash("sha1").update(body).digest("base64url")}"` };
    }
    // with the ETag set, Express neither hashes the body again nor sends it to a client that has it (304)
    res.setHeader("ETag", cached.etag);
    res.type("json").send(cached.body);
  });

  r.get("/knowledge/search", requireUser, async (req, res) => {
    const query = readQueryString(req.query, "q") ?? readQueryString(req.query, "query") ?? "";
    const category = readQueryString(req.query, "category");
    const limitRaw = readQueryString(req.query, "limit");
    const limit = limitRaw && /^\d{1,3}$/.test(limitRaw) ? Number(limitRaw) : undefined;
    const result = await services.knowledge.search(signedIn(res).user, {
      query,
      category,
      limit,
    });
    // a search card shows the snippet: the whole text is left out (GET /api/knowledge or GraphQL has it)
    const hits = result.hits.map(({ article, ...hit }) => {
      const { content: _content, ...summary } = presentArticle(article);
      return { ...hit, article: summary };
    });
    res.json({ ...result, hits });
  });

  return r;
}
