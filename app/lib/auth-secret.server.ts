import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "./env.server";

/**
 * AUTH_SECRET, or outside production a random one generated once into DATA_DIR so sessions
 * survive restarts on a developer's machine.
 */
export function authSecret(): string {
  const configured = env().authSecret;
  if (configured) return configured;
  if (env().isProduction && env().databaseUrl) {
    throw new Error("AUTH_SECRET must be set in production");
  }
  const file = path.join(env().dataDir, "auth-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(env().dataDir, { recursive: true });
    const secret = crypto.randomBytes(32).toString("base64url");
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
      return secret;
    } catch {
      // Another process wrote it first.
      return fs.readFileSync(file, "utf8").trim();
    }
  }
}
