/** An amount held per caller and in all (bytes, bodies, requests), with a share for each and a bound for the total. */
export class Meter {
  readonly #byCaller = new Map<string, number>();
  #total = 0;

  constructor(
    readonly perCaller: number,
    readonly max = Number.POSITIVE_INFINITY,
  ) {}

  held(caller: string): number {
    return this.#byCaller.get(caller) ?? 0;
  }

  add(caller: string, amount: number): void {
    if (amount === 0) return;
    const now = this.held(caller) + amount;
    if (now > 0) this.#byCaller.set(caller, now);
    else this.#byCaller.delete(caller);
    this.#total += amount;
  }

  /** Whose bound `amount` more would pass: the caller's share, the server's total, or neither. */
  refuses(caller: string, amount = 0): 'caller' | 'server' | undefined {
    if (this.held(caller) + amount > this.perCaller) return 'caller';
    if (this.#total + amount > this.max) return 'server';
    return undefined;
  }
}
