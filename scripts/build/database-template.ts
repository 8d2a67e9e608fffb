// The embedded database's template (app/db/template.server.ts, ADR 092): a new PGlite database
// migrated from drizzle/ by the same code a server runs, its directory kept in
// build/database-template/ with the migrations' fingerprint. `npm run build` makes it, so a build
// always carries the template of its own migrations (drizzle/ is part of the build's fingerprint).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MIGRATIONS_DIR, openDatabase } from "~/db/client.server";
import {
  migrationsFingerprint,
  TEMPLATE_DATABASE,
  TEMPLATE_FINGERPRINT,
} from "~/db/template.server";

/** Writes the template of MIGRATIONS_DIR's migrations to `target` (replacing what was there). */
export async function writeDatabaseTemplate(target: string) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "handyman-template-"));
  try {
    const handle = await openDatabase({ dataDir: work });
    try {
      await handle.migrate();
    } finally {
      await handle.close();
    }
    const made = `${target}.partial`;
    fs.rmSync(made, { recursive: true, force: true });
    fs.mkdirSync(made, { recursive: true });
    fs.cpSync(path.join(work, "pglite"), path.join(made, TEMPLATE_DATABASE), { recursive: true });
    fs.writeFileSync(
      path.join(made, TEMPLATE_FINGERPRINT),
      `${migrationsFingerprint(MIGRATIONS_DIR)}\n`,
    );
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(made, target);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  const target = path.resolve(process.argv[2] ?? "build/database-template");
  await writeDatabaseTemplate(target);
  console.log(
    `The database template: ${path.relative(process.cwd(), target)} (${Date.now() - started} ms)`,
  );
  process.exit(0);
}
