/**
 * Ports of one end-to-end run, derived from E2E_PORT so several runs can share a machine.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);
export const SINK_SMTP_PORT = E2E_PORT + 1;
export const SINK_HTTP_PORT = E2E_PORT + 2;
export const BASE_URL = `http://localhost:${E2E_PORT}`;
export const SINK_URL = `http://127.0.0.1:${SINK_HTTP_PORT}`;

/** The PostgreSQL database the end-to-end server uses (in TEST_DATABASE_URL's cluster). */
export function e2eDatabaseUrl() {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin)
    throw new Error("TEST_DATABASE_URL must point at a PostgreSQL server for end-to-end tests");
  const url = new URL(admin);
  url.pathname = `/e2e_${E2E_PORT}`;
  return url.toString();
}
