/**
 * REST errors: { message, code } with the fitting status. Express's own errors (a body or path that does not
 * decode) are the client's mistake: a 4xx, logged at debug. Only unknown errors are logged in full (error
 * level) and shown generically.
 */
import type { NextFunction, Request, Response } from "express";
import { AppError, Errors } from "../errors";
import { logger } from "../logger";
import { clientErrorOf, logClientError } from "./http-edge";

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return clientErrorOf(err) ?? Errors.internal();
}

export function sendError(res: Response, err: unknown, req?: Request): void {
  const appError = toAppError(err);
  if (appError.code === "INTERNAL_SERVER_ERROR") logger.error({ err }, "unexpected error in REST handler");
  else if (req && !(err instanceof AppError)) logClientError(req, err, appError);
  if (appError.retryAfter !== undefined) res.setHeader("Retry-After", String(appError.retryAfter));
  res.status(appError.status).json({
    message: appError.message,
    code: appError.code,
    ...(appError.fields ? { fields: appError.fields } : {}),
  });
}

export function restErrorHandler(err: unknown, req: Request, res: Response, _next: NextFunction): void {
  if (res.headersSent) return;
  sendError(res, err, req);
}
