/**
 * The virtual users of bench:cluster's mix (bench/cluster/mix.ts): each thinks 2–6 s between actions: chat
 * (bench/cluster.chat.ts askOnce: wait for the first token, then for the end of the answer), search (GraphQL
 * searchKnowledge) or browse (GET /api/knowledge, or one article through GraphQL knowledgeArticle). Errors:
 * non-2xx, GraphQL errors, an answer that fails or does not start within 30 s.
 */
import { performance } from "node:perf_hooks";
import { askOnce, type ChatSeat, seat } from "../cluster.chat";

const SEARCHES = ["klagefrist", "ferie", "aktindsigt", "persondata", "mødereferat", "tilskud"];

export type MixAction = "chat" | "search" | "browse";
/** each action's share of a user's actions, in percent (the mix) */
export const MIX_SHARES: Record<MixAction, number> = { chat: 30, search: 35, browse: 35 };

/** The action for a uniform draw `pick` in [0, 1): among `kinds`, in proportion to their MIX_SHARES. */
export function pickAction(pick: number, kinds: readonly MixAction[]): MixAction {
  const at = pick * kinds.reduce((sum, k) => sum + MIX_SHARES[k], 0);
  let upTo = 0;
  for (const k of kinds) {
    upTo += MIX_SHARES[k];
    if (at < upTo) return k;
  }
  return kinds[kinds.length - 1];
}

export interface MixResult {
  users: number;
  durationS: number;
  chat: number[];
  /** DELTA frames each answered chat's subscriber received (as `chat`) */
  chatFrames: number[];
  /** each answered chat's timing (as `chat`), for the tail analysis (bench/cluster/tail.ts) */
  chatTimes: Array<{ sentUs: number; respMs: number; overhead: number; url: string }>;
  search: number[];
  browse: number[];
  errors: number;
  errorSamples: string[];
  /** the chats' overheads during the warm-up (not in `chat`) */
  warmupChat: number[];
  /** actions (chat, search, browse) started during the warm-up */
  warmupActions: number;
  /** when the measured part started (µs of the monotonic clock) */
  startUs: number;
}

/**
 * `users` virtual users spread over `urls` for `warmupS` + `durationS` seconds (see the header); the actions
 * started in the first `warmupS` seconds are not counted (but their errors are). `onStart`: called as the
 * measured part starts.
 */
export async function userMix(
  urls: string[],
  tokens: string[],
  users: number,
  durationS: number,
  opts: { warmupS?: number; onUsers?: () => void; onStart?: () => void; actions?: readonly MixAction[] } = {},
): Promise<MixResult> {
  const { gql, rest } = await import("../../api/src/testing/client");
  const result: MixResult = {
    users,
    durationS,
    chat: [],
    chatFrames: [],
    chatTimes: [],
    search: [],
    browse: [],
    errors: 0,
    errorSamples: [],
    warmupChat: [],
    warmupActions: 0,
    startUs: 0,
  };
  const fail = (what: string) => {
    result.errors++;
    if (result.errorSamples.length < 5) result.errorSamples.push(what);
  };
  const articles = (await rest({ url: urls[0] }, "GET", "/api/knowledge", { token: tokens[0] })).body;
  // grouped by category
  const ids = (Object.values(articles ?? {}) as Array<Array<{ id: string }>>).flat().map((a) => a.id);
  // sessions and websockets first (not measured), a few at a time
  const seats: ChatSeat[] = [];
  for (let i = 0; i < users; i += 20) {
    const batch = Array.from({ length: Math.min(20, users - i) }, (_, j) => {
      const url = urls[(i + j) % urls.length];
      return seat(url, url, tokens[(i + j) % tokens.length]);
    });
    seats.push(...(await Promise.all(batch)));
  }
  await new Promise((r) => setTimeout(r, 1_000));
  opts.onUsers?.();
  const measuredFrom = performance.now() + (opts.warmupS ?? 0) * 1_000;
  const end = measuredFrom + durationS * 1_000;
  const started = setTimeout(
    () => {
      result.startUs = Number(process.hrtime.bigint() / 1000n);
      opts.onStart?.();
    },
    (opts.warmupS ?? 0) * 1_000,
  );
  const think = () => new Promise((r) => setTimeout(r, 2_000 + Math.random() * 4_000));
  const user = async (i: number) => {
    const s = seats[i];
    const url = urls[i % urls.length];
    await new Promise((r) => setTimeout(r, Math.random() * 6_000)); // arrivals spread over one think time
    while (performance.now() < end) {
      const action = pickAction(Math.random(), opts.actions ?? ["chat", "search", "browse"]);
      const t0 = performance.now();
      if (t0 < measuredFrom) result.warmupActions++;
      try {
        if (action === "chat") {
          const asked = await askOnce(s);
          if (t0 < measuredFrom) result.warmupChat.push(asked.overhead);
          else {
            result.chat.push(asked.overhead);
            result.chatFrames.push(asked.frames);
            result.chatTimes.push({
              sentUs: asked.sentUs,
              respMs: asked.respMs,
              overhead: asked.overhead,
              url,
            });
          }
        } else if (action === "search") {
          const q = SEARCHES[Math.floor(Math.random() * SEARCHES.length)];
          const r = await gql(
            { graphqlUrl: `${url}/graphql` },
            `query($q: String!) { searchKnowledge(query: $q) { total hits { article { id title } } } }`,
            { q },
            s.token,
          );
          if (r.errors) fail(`search ${JSON.stringify(r.errors).slice(0, 120)}`);
          else if (t0 >= measuredFrom) result.search.push(performance.now() - t0);
        } else {
          if (Math.random() < 0.5 || ids.length === 0) {
            const r = await rest({ url }, "GET", "/api/knowledge", { token: s.token });
            if (r.status !== 200) fail(`GET /api/knowledge ${r.status}`);
            else if (t0 >= measuredFrom) result.browse.push(performance.now() - t0);
          } else {
            const id = ids[Math.floor(Math.random() * ids.length)];
            const r = await gql(
              { graphqlUrl: `${url}/graphql` },
              `query($id: ID!) { knowledgeArticle(id: $id) { id title content category } }`,
              { id },
              s.token,
            );
            if (r.errors) fail(`article ${JSON.stringify(r.errors).slice(0, 120)}`);
            else if (t0 >= measuredFrom) result.browse.push(performance.now() - t0);
          }
        }
      } catch (err) {
        fail(String(err instanceof Error ? err.message : err).slice(0, 160));
      }
      await think();
    }
  };
  try {
    await Promise.all(seats.map((_, i) => user(i)));
  } finally {
    clearTimeout(started);
    for (const s of seats) s.events.close();
    await Promise.all(seats.map((s) => s.client.dispose()));
  }
  return result;
}
