/** The one logger: readable in development, JSON lines in production (and in tests, silent unless LOG_LEVEL). */
import pino from "pino";
import { readLogSettings } from "./config";

const settings = readLogSettings();

export const logger = pino({
  level: settings.level,
  redact: {
    paths: ["password", "*.password", "token", "*.token", "req.headers.authorization", "req.headers.cookie"],
  },
  ...(settings.pretty
    ? {
        transport: {
          target: "pino-pretty",
          options: { colorize: true, translateTime: "HH:MM:ss", ignore: "pid,hostname" },
        },
      }
    : {}),
});

export type Logger = typeof logger;
