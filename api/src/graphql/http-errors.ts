/**
 * Errors before Apollo sees a /graphql request (a body that is not JSON, or too large) answered in the GraphQL
 * shape a GraphQL client reads, `{ errors: [{ message, extensions: { code } }] }`, with the same code and status
 * as REST gives them. A client's mistake is not logged as a failure.
 */
import type { NextFunction, Request, Response } from "express";
import { logger } from "../logger";
import { toAppError } from "../rest/error-handler";

export function graphqlBodyErrorHandler(
  err: unknown,
  _req: Request,
  res: Response,
  _next: NextFunction,
): void {
  if (res.headersSent) return;
  const appError = toAppError(err);
  if (appError.code === "INTERNAL_SERVER_ERROR") logger.error({ err }, "unexpected error before GraphQL");
  res.status(appError.status).json({
    errors: [
      {
        message: appError.message,
        extensions: { code: appError.code, messageKey: appError.key, messageParams: appError.params },
      },
    ],
  });
}
