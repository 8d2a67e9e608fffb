import pino from "pino";
import { env } from "./env.server";

/** JSON lines; secrets are redacted wherever they could appear. */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "warn" : "info"),
  base: undefined,
  redact: {
    paths: [
      "password",
      "*.password",
      "token",
      "*.token",
      "secret",
      "*.secret",
      "headers.cookie",
      "req.headers.cookie",
      "req.headers.authorization",
      "*.totpURI",
      "*.backupCodes",
    ],
    censor: "[redacted]",
  },
});

export function configureLogger() {
  logger.level = env().logLevel;
}
