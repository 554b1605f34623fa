import { afterEach, describe, expect, it } from "vitest";
import { createInProcessBus } from "../events/in-process";
import { ChatUserCache, type ChatUserDirectory } from "./chat.cache";

/** A users directory that answers from a table and counts what it was asked. */
function directory(table: Record<string, { email?: string | null; language?: string }>) {
  const asked = { email: [] as string[], language: [] as string[] };
  const users: ChatUserDirectory = {
    emailOf: async (id) => {
      asked.email.push(id);
      return table[id]?.email ?? null;
    },
    languageOf: async (id) => {
      asked.language.push(id);
      const language = table[id]?.language;
      if (language === undefined) throw new Error("preferences unavailable");
      return language;
    },
  };
  return { users, asked, table };
}

/** Let the cache's subscription take the published event. */
const tick = () => new Promise((r) => setImmediate(r));

const caches: ChatUserCache[] = [];
function cacheOf(users: ChatUserDirectory, options?: ConstructorParameters<typeof ChatUserCache>[1]) {
  const cache = new ChatUserCache(users, options);
  caches.push(cache);
  return cache;
}
afterEach(async () => {
  for (const c of caches.splice(0)) await c.close();
});

describe("ChatUserCache", () => {
  it("should ask the users directory for an e-mail once, and again while there is none", async () => {
    const { users, asked } = directory({ a: { email: "a@minksekretariatet.dk" } });
    const cache = cacheOf(users);
    expect(await cache.emailOf("a")).toBe("a@minksekretariatet.dk");
    expect(await cache.emailOf("a")).toBe("a@minksekretariatet.dk");
    expect(asked.email).toEqual(["a"]);
    expect(await cache.emailOf("gone")).toBeNull();
    expect(await cache.emailOf("gone")).toBeNull();
    expect(asked.email).toEqual(["a", "gone", "gone"]);
  });

  it("should answer in English only when chosen, Danish otherwise and when the lookup fails", async () => {
    const { users } = directory({ en: { language: "en" }, da: { language: "da" }, xx: { language: "fr" } });
    const cache = cacheOf(users);
    expect(await cache.languageOf("en")).toBe("en");
    expect(await cache.languageOf("da")).toBe("da");
    expect(await cache.languageOf("xx")).toBe("da");
    expect(await cache.languageOf("broken")).toBe("da");
  });

  it("should keep a language for its time to live, and not keep a failed lookup", async () => {
    const { users, asked, table } = directory({ u: { language: "en" } });
    const cache = cacheOf(users);
    await cache.languageOf("u");
    await cache.languageOf("u");
    expect(asked.language).toEqual(["u"]);
    await cache.languageOf("broken");
    table.broken = { language: "en" };
    expect(await cache.languageOf("broken")).toBe("en");

    const { users: fresh, asked: freshAsked } = directory({ u: { language: "en" } });
    const expiring = cacheOf(fresh, { languageTtlMs: 0 });
    await expiring.languageOf("u");
    await expiring.languageOf("u");
    expect(freshAsked.language).toEqual(["u", "u"]);
  });

  it("should drop a user's language when a preference is saved, and stop following after close", async () => {
    const { users, asked, table } = directory({ u: { language: "da" } });
    const events = createInProcessBus();
    const cache = cacheOf(users, { events });
    expect(await cache.languageOf("u")).toBe("da");
    table.u = { language: "en" };
    events.publish("PREFERENCES_CHANGED", {
      userId: "u",
      language: "en",
      theme: "light",
      notifications: true,
      updatedAt: new Date(),
    });
    await tick();
    expect(await cache.languageOf("u")).toBe("en");
    expect(asked.language).toEqual(["u", "u"]);

    await cache.close();
    table.u = { language: "da" };
    events.publish("PREFERENCES_CHANGED", {
      userId: "u",
      language: "da",
      theme: "light",
      notifications: true,
      updatedAt: new Date(),
    });
    await tick();
    expect(await cache.languageOf("u")).toBe("en");
  });

  it("should hold at most `max` users per cache", async () => {
    const { users, asked } = directory({
      a: { email: "a@x.dk", language: "en" },
      b: { email: "b@x.dk", language: "en" },
      c: { email: "c@x.dk", language: "en" },
    });
    const cache = cacheOf(users, { max: 2 });
    for (const id of ["a", "b", "c", "a"]) {
      await cache.emailOf(id);
      await cache.languageOf(id);
    }
    // 'c' did not fit beside a and b: the cache started over, so 'a' was asked for again
    expect(asked.email).toEqual(["a", "b", "c", "a"]);
    expect(asked.language).toEqual(["a", "b", "c", "a"]);
  });
});
