import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/*
 * The embedded database's template (issue 45, docs/decisions/092-a-first-start-from-a-template.md):
 * the build migrates a new PGlite database from drizzle/ and keeps its directory; a first start
 * on an empty data directory copies it instead of creating a database and replaying every
 * migration (most of a first start's time). The template carries the fingerprint of the
 * migrations it was made from and is used only when it equals that of the migrations the server
 * applies, so a template older or newer than drizzle/ is never copied: the server then creates
 * and migrates the database as before. The migrations still run after a copy, and find nothing
 * to do.
 */

/** The migrations the server applies (drizzle/, or MIGRATIONS_DIR). */
export const MIGRATIONS_DIR = path.resolve(process.env.MIGRATIONS_DIR ?? "drizzle");

/** Where a server finds the build's database template (ADR 092). */
export function databaseTemplateDir(buildDir = process.env.BUILD_DIR ?? "build") {
  return path.resolve(buildDir, "database-template");
}

/** The template's own files: the database directory and the migrations' fingerprint. */
export const TEMPLATE_DATABASE = "pglite";
export const TEMPLATE_FINGERPRINT = "migrations.sha256";

/** The identity of a migrations folder: its journal and every SQL file, by name and content. */
export function migrationsFingerprint(migrationsDir: string) {
  const hash = crypto.createHash("sha256");
  const files = [
    path.join("meta", "_journal.json"),
    ...fs
      .readdirSync(migrationsDir)
      .filter((name) => name.endsWith(".sql"))
      .sort(),
  ];
  for (const file of files) {
    hash.update(file);
    hash.update(fs.readFileSync(path.join(migrationsDir, file)));
  }
  return hash.digest("hex");
}

/** Whether an embedded database directory holds nothing yet (absent, or empty). */
export function isEmptyDatabaseDir(pgDir: string) {
  return !fs.existsSync(pgDir) || fs.readdirSync(pgDir).length === 0;
}

/** Whether `templateDir` holds a template made from exactly these migrations. */
export function templateMatches(templateDir: string, migrationsDir: string) {
  try {
    const made = fs.readFileSync(path.join(templateDir, TEMPLATE_FINGERPRINT), "utf8").trim();
    return (
      made === migrationsFingerprint(migrationsDir) &&
      fs.statSync(path.join(templateDir, TEMPLATE_DATABASE)).isDirectory()
    );
  } catch {
    return false;
  }
}

/**
 * The template's database directory when the empty embedded database directory `pgDir` is to be
 * filled from it (the template matches the migrations), else null. The caller holds the data
 * directory's lock; the database's worker makes the copy on its own thread (pglite-worker.mjs,
 * ADR 105), beside the directory and renamed into place, so a start interrupted half-way leaves
 * an empty directory, never half a database.
 */
export function templateToCopy(templateDir: string, migrationsDir: string, pgDir: string) {
  if (!isEmptyDatabaseDir(pgDir)) return null;
  if (!templateMatches(templateDir, migrationsDir)) return null;
  return path.join(templateDir, TEMPLATE_DATABASE);
}
