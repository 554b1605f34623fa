/**
 * REST compatibility routes (spec §7): GET /api/knowledge = { [category]: article[] } with the fields the
 * knowledge page reads; plus GET /api/knowledge/search?q=&category= for REST clients. Sign-in required.
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { Router } from "express";
import { requireUser, signedIn } from "../rest/auth-middleware";
import { readQueryString } from "../rest/validate";
import type { Services } from "../services";
import { presentArticle } from "./article.presenter";

const gzipAsync = promisify(gzip);
/** Listings smaller than this are sent as they are (gzip would hardly shorten them). */
export const GZIP_MIN_BYTES = 1_024;

interface CachedListing {
  version: number;
  body: Buffer;
  etag: string;
  /** the same bytes gzipped, once the background compression is done */
  gzipped: Buffer | null;
}

export function knowledgeRestRouter(services: Services): Router {
  const r = Router();
  // The grouped listing is the same bytes until an article changes: serialise, tag and gzip once per version
  // (the whole knowledge base's text: 82 kB as JSON for the sample content, 24 kB gzipped).
  let cached: CachedListing | null = null;

  r.get("/knowledge", requireUser, async (req, res) => {
    const { version, groups } = await services.knowledge.articlesByCategory();
    if (cached?.version !== version) {
      const out: Record<string, ReturnType<typeof presentArticle>[]> = {};
      for (const [category, articles] of groups) out[category] = articles.map(presentArticle);
      const body = Buffer.from(JSON.stringify(out));
      const entry: CachedListing = {
        version,
        body,
        etag: `W/"${createHash("sha1").update(body).digest("base64url")}"`,
        gzipped: null,
      };
      cached = entry;
      // compressed off the event loop; requests meanwhile get the plain bytes
      if (body.length >= GZIP_MIN_BYTES)
        gzipAsync(body).then(
          (gz) => {
            entry.gzipped = gz;
          },
          () => undefined,
        );
    }
    // with the ETag set, Express neither hashes the body again nor sends it to a client that has it (304)
    res.setHeader("ETag", cached.etag);
    res.vary("Accept-Encoding");
    if (cached.gzipped && req.acceptsEncodings("gzip", "identity") === "gzip") {
      res.setHeader("Content-Encoding", "gzip");
      res.type("json").send(cached.gzipped);
      return;
    }
    res.type("json").send(cached.body);
  });

  r.get("/knowledge/search", requireUser, async (req, res) => {
    const query = readQueryString(req.query, "q") ?? readQueryString(req.query, "query") ?? "";
    const category = readQueryString(req.query, "category");
    const limitRaw = readQueryString(req.query, "limit");
    const limit = limitRaw && /^\d{1,3}$/.test(limitRaw) ? Number(limitRaw) : undefined;
    const result = await services.knowledge.search(signedIn(res).identity, {
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
