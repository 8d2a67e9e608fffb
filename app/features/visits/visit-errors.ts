/*
 * The visits feature's refusal and who asks (ADR 090): a module of their own, so the visit's
 * life (visit-life.server.ts) and booking (visits.server.ts) share them without importing
 * each other.
 */

export class VisitRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "VisitRejectedError";
  }
}

export type Actor = { id: string; isEmployee: boolean };
