/** An enhancement module imported for its URL (scripts/build/page-scripts.ts, ADR 030). */
declare module "*?page-script" {
  const url: string;
  export default url;
}
