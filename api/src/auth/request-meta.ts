/** Where a request came from; used for rate limits and the session record. */
export interface RequestMeta {
  ip?: string;
  userAgent?: string;
}

/** The key of per-IP limits. */
export function ipKey(meta: RequestMeta): string {
  return meta.ip ?? "unknown";
}
