/** REST errors: { message, code } with the fitting status; unknown errors logged and shown generically. */
import type { NextFunction, Request, Response } from "express";
import { AppError, Errors } from "../errors";
import { logger } from "../logger";

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as { type?: string; status?: number };
  if (e?.type === "entity.too.large" || e?.status === 413) return Errors.payloadTooLarge();
  if (e?.type === "entity.parse.failed") return Errors.badInput("Ugyldig JSON i forespørgslen");
  if (e?.type && typeof e.status === "number" && e.status >= 400 && e.status < 500) {
    return Errors.badInput("Ugyldig forespørgsel");
  }
  return Errors.internal();
}

export function sendError(res: Response, err: unknown): void {
  const appError = toAppError(err);
  if (appError.code === "INTERNAL_SERVER_ERROR") logger.error({ err }, "unexpected error in REST handler");
  if (appError.retryAfter !== undefined) res.setHeader("Retry-After", String(appError.retryAfter));
  res.status(appError.status).json({
    message: appError.message,
    code: appError.code,
    ...(appError.fields ? { fields: appError.fields } : {}),
  });
}

export function restErrorHandler(err: unknown, _req: Request, res: Response, _next: NextFunction): void {
  if (res.headersSent) return;
  sendError(res, err);
}
