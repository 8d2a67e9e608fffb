/** The rows of a `db.execute(sql...)` answer (node-postgres' result), typed as the query says. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
