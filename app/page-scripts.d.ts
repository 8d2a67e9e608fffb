/** An enhancement module imported as its bundled code (scripts/build/page-scripts.ts, ADR 030). */
declare module "*?page-script" {
  const code: string;
  export default code;
}
