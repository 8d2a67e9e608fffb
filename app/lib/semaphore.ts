/**
 * At most `limit` tasks at once; the others wait in the order they came. In-process only: it
 * bounds what one server process does (memory, threads), not what the cluster does.
 */
export class Semaphore {
  #active = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(private limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError("limit must be at least 1");
  }

  /** Tasks running now. */
  get active() {
    return this.#active;
  }

  /** Tasks waiting for a turn. */
  get waiting() {
    return this.#waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.limit) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#active++;
    }
    try {
      return await task();
    } finally {
      // The turn passes straight to the next waiter, so a newcomer can never slip in between.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#active--;
    }
  }
}
