/** Helpers shared by the knowledge tests that talk to a running test app. */
import { expect } from "vitest";
import type { TestApp } from "../testing/app";
import { gql } from "../testing/client";

export const SEARCH = `query Search($query: String!, $category: String, $limit: Int, $offset: Int) {
  searchKnowledge(query: $query, category: $category, limit: $limit, offset: $offset) {
    total query truncated corrections { from to }
    hits { score snippet highlights { start end } titleHighlights { start end } article { id title category } }
  }
}`;

export interface SearchOptions {
  category?: string;
  limit?: number;
  offset?: number;
}

/** searchKnowledge over GraphQL as the holder of `token`. */
export function searchAs(app: TestApp, token: string, query: unknown, opts: SearchOptions = {}) {
  return gql(app, SEARCH, { query, category: opts.category, limit: opts.limit, offset: opts.offset }, token);
}

/** The titles a search finds (failing the test on a GraphQL error). */
export async function titlesFor(app: TestApp, token: string, query: string, category?: string) {
  const res = await searchAs(app, token, query, { category });
  expect(res.errors).toBeUndefined();
  return res.data.searchKnowledge.hits.map(
    (h: { article: { title: string } }) => h.article.title,
  ) as string[];
}
