/**
 * Attempt limits (rate-limiter-flexible over the mongoose connection, so every process shares the counts).
 * A limit hit becomes AppError TOO_MANY_REQUESTS with retryAfter seconds.
 *
 * An attempt is always counted before the secret is checked: consume() is one atomic increment in the store
 * that also answers whether the attempt is still allowed, so of many simultaneous guesses only as many as the
 * limit get checked. (A look-first-count-later API would let every guess of a burst pass the look before the
 * first one is counted; there is deliberately none.)
 */
import mongoose from "mongoose";
import { RateLimiterMongo, RateLimiterRes } from "rate-limiter-flexible";
import type { RateLimitConfig, RateLimitRule } from "../config";
import { type AppError, Errors } from "../errors";

export type LimitName = keyof RateLimitConfig;

export interface RateLimits {
  /** count one attempt, before making it; throws TOO_MANY_REQUESTS when over the limit */
  consume(name: LimitName, key: string): Promise<void>;
  /** count one attempt like consume(), answering the refusal (TOO_MANY_REQUESTS) instead of throwing it */
  take(name: LimitName, key: string): Promise<AppError | null>;
  /** give back one counted attempt that turned out not to be a guess (e.g. the right password) */
  refund(name: LimitName, key: string): Promise<void>;
  /** forget the attempts (e.g. after a successful login) */
  reset(name: LimitName, key: string): Promise<void>;
}

function retryAfterSeconds(res: RateLimiterRes): number {
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
}

export function createRateLimits(config: RateLimitConfig): RateLimits {
  const limiters = new Map<LimitName, RateLimiterMongo>();
  const rule = (name: LimitName): RateLimitRule => config[name];
  const limiter = (name: LimitName): RateLimiterMongo => {
    let l = limiters.get(name);
    if (!l) {
      l = new RateLimiterMongo({
        storeClient: mongoose.connection,
        tableName: "rate_limits",
        keyPrefix: name,
        points: rule(name).points,
        duration: rule(name).duration,
      });
      limiters.set(name, l);
    }
    return l;
  };

  const take = async (name: LimitName, key: string): Promise<AppError | null> => {
    try {
      await limiter(name).consume(key);
      return null;
    } catch (e) {
      if (e instanceof RateLimiterRes) return Errors.tooManyRequests(retryAfterSeconds(e));
      throw e;
    }
  };

  return {
    async consume(name, key) {
      const refused = await take(name, key);
      if (refused) throw refused;
    },
    take,
    async refund(name, key) {
      await limiter(name).reward(key, 1);
    },
    async reset(name, key) {
      await limiter(name).delete(key);
    },
  };
}
