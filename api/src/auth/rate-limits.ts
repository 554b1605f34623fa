/**
 * Attempt limits (rate-limiter-flexible over the mongoose connection, so every process shares the counts).
 * A limit hit becomes AppError TOO_MANY_REQUESTS with retryAfter seconds.
 */
import mongoose from "mongoose";
import { RateLimiterMongo, RateLimiterRes } from "rate-limiter-flexible";
import type { RateLimitConfig, RateLimitRule } from "../config";
import { Errors } from "../errors";

export type LimitName = keyof RateLimitConfig;

export interface RateLimits {
  /** count one attempt; throws TOO_MANY_REQUESTS when over the limit */
  consume(name: LimitName, key: string): Promise<void>;
  /** throw TOO_MANY_REQUESTS if the limit is already used up, without counting */
  check(name: LimitName, key: string): Promise<void>;
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

  return {
    async consume(name, key) {
      try {
        await limiter(name).consume(key);
      } catch (e) {
        if (e instanceof RateLimiterRes) throw Errors.tooManyRequests(retryAfterSeconds(e));
        throw e;
      }
    },
    async check(name, key) {
      const res = await limiter(name).get(key);
      if (res && res.consumedPoints >= rule(name).points)
        throw Errors.tooManyRequests(retryAfterSeconds(res));
    },
    async reset(name, key) {
      await limiter(name).delete(key);
    },
  };
}
