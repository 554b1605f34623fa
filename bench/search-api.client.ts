/**
 * What bench:search (bench/search.bench.ts) and bench/search-api.profile.ts send to a running server's search:
 * one keep-alive node:http client (one socket, so every request pays the same round trip), the GraphQL and REST
 * searches of limit 10, and fresh query texts.
 */
import http from "node:http";

/** The GraphQL searchKnowledge of limit 10 with every field the web app reads. */
export const gqlSearchBody = (q: string) =>
  JSON.stringify({
    query:
      "query($q: String!) { searchKnowledge(query: $q, limit: 10) { total hits { score snippet highlights { start end } titleHighlights { start end } article { id title category subcategory tags updatedAt } } } }",
    variables: { q },
  });

/** The REST search of limit 10 on the server at `baseUrl`. */
export const restSearchUrl = (baseUrl: string, q: string) =>
  `${baseUrl}/api/knowledge/search?limit=10&q=${encodeURIComponent(q)}`;

/**
 * Each query once: the index keeps the analysis and ranking of its last 500 query texts (search.query-cache.ts),
 * so a repeated query is a cache hit. A fresh query is the same words followed by whitespace that spells a counter
 * (spaces and tabs as binary digits): a text no earlier call in this process sent, anywhere (the raw index, then
 * GraphQL, then REST on the same server), with the same terms, so it is analysed and ranked every time, like a
 * query nobody asked before.
 */
let freshCount = 0;
export const freshText = (q: string) =>
  `${q} ${(++freshCount).toString(2).replaceAll("0", " ").replaceAll("1", "\t")}`;

export interface KeepAliveClient {
  /** GET `url`, or POST `body` as JSON; the body of a 200 answer, else rejects */
  get(url: string, body?: string): Promise<string>;
  close(): void;
}

/** One keep-alive socket sending `headers` (the sign-in) with every request. */
export function keepAliveClient(headers: Record<string, string>): KeepAliveClient {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (url: string, body?: string) =>
    new Promise<string>((resolve, reject) => {
      const sent: Record<string, string | number> = { ...headers };
      if (body)
        Object.assign(sent, {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        });
      const r = http.request(url, { method: body ? "POST" : "GET", agent, headers: sent }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () =>
          res.statusCode === 200 ? resolve(text) : reject(new Error(`${url}: HTTP ${res.statusCode}`)),
        );
      });
      r.on("error", reject);
      r.end(body);
    });
  return { get, close: () => agent.destroy() };
}
