import { getTableColumns, type Table } from "drizzle-orm";
import { toSnakeCase } from "drizzle-orm/casing";

/** The rows of a `db.execute(sql...)` answer (node-postgres' result), typed as the query says. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * Rows of `table` aggregated by the database as JSON (`json_agg(t)`: each row's object keyed by
 * column name), mapped as a select of the table would map them (a timestamp a Date, an array of
 * integers an array). For a page that reads a parent row with its children in one statement.
 */
export function tableRowsFromJson<T extends Table>(
  table: T,
  rows: Record<string, unknown>[],
): T["$inferSelect"][] {
  // Named by their keys, the columns are snake_case in the database (client.server.ts).
  const columns = Object.entries(getTableColumns(table)).map(
    ([key, column]) =>
      [key, column, column.keyAsName ? toSnakeCase(column.name) : column.name] as const,
  );
  return rows.map((row) => {
    const mapped: Record<string, unknown> = {};
    for (const [key, column, name] of columns) {
      const value = row[name];
      mapped[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return mapped as T["$inferSelect"];
  });
}
