/**
 * What the chat remembers about its users, so a question does not cost a lookup in the users module each time:
 * the e-mail (for the activity log) and the answer language (from the user's preferences).
 *
 * The chat never reads another feature's collections: both facts come from a ChatUserDirectory that the
 * composition root (api/src/services.ts) builds from the users module.
 *
 * How stale can an entry be? An account's e-mail never changes, so it is kept until the cache is full. The
 * language is kept LANGUAGE_CACHE_MS; a preference saved in this process (PREFERENCES_CHANGED) drops the entry at
 * once, so the next question is answered in the new language.
 */
import type { EventBus } from "../events/bus";
import type { AnswerLanguage } from "./answer";

/** What the chat needs to know about a user, from the users module (wired in services.ts). */
export interface ChatUserDirectory {
  /** the account's e-mail, for the activity log; null when there is no such account */
  emailOf(userId: string): Promise<string | null>;
  /** the language the user chose in their preferences ('da', 'en', …) */
  languageOf(userId: string): Promise<string>;
}

/** how long a user's answer language is trusted without asking again (ms) */
export const LANGUAGE_CACHE_MS = 60_000;
/** users remembered per cache; when full it starts over (a bound on memory, not an eviction policy) */
export const USER_CACHE_MAX = 10_000;

export interface ChatUserCacheOptions {
  languageTtlMs?: number;
  max?: number;
  /** the app's event bus: a saved preference (PREFERENCES_CHANGED) drops the user's cached language */
  events?: EventBus;
}

export class ChatUserCache {
  private readonly emails = new Map<string, string>();
  private readonly languages = new Map<string, { language: AnswerLanguage; at: number }>();
  private readonly preferenceEvents: AsyncIterator<{ userId: string }> | null;
  private readonly languageTtlMs: number;
  private readonly max: number;

  constructor(
    private readonly users: ChatUserDirectory,
    { languageTtlMs = LANGUAGE_CACHE_MS, max = USER_CACHE_MAX, events }: ChatUserCacheOptions = {},
  ) {
    this.languageTtlMs = languageTtlMs;
    this.max = max;
    // a saved preference (any tab) takes effect on the next question
    const saved = events?.subscribe("PREFERENCES_CHANGED") ?? null;
    this.preferenceEvents = saved;
    if (saved) {
      void (async () => {
        for (let e = await saved.next(); !e.done; e = await saved.next())
          this.languages.delete(e.value.userId);
      })().catch(() => undefined);
    }
  }

  /** The user's e-mail for the activity log (cached once found: an account's e-mail never changes). */
  async emailOf(userId: string): Promise<string | null> {
    const cached = this.emails.get(userId);
    if (cached !== undefined) return cached;
    const email = await this.users.emailOf(userId);
    if (this.emails.size >= this.max) this.emails.clear();
    if (email) this.emails.set(userId, email);
    return email;
  }

  /** The user's answer language: 'en' when chosen, else 'da' (also when the lookup fails). */
  async languageOf(userId: string): Promise<AnswerLanguage> {
    const cached = this.languages.get(userId);
    if (cached && Date.now() - cached.at < this.languageTtlMs) return cached.language;
    try {
      const language: AnswerLanguage = (await this.users.languageOf(userId)) === "en" ? "en" : "da";
      if (this.languages.size >= this.max) this.languages.clear();
      this.languages.set(userId, { language, at: Date.now() });
      return language;
    } catch {
      return "da";
    }
  }

  /** Stop following saved preferences. */
  async close(): Promise<void> {
    await this.preferenceEvents?.return?.();
  }
}
