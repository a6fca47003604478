/**
 * The stream loop's bookkeeping of messages sent and not yet answered: a
 * ring of message indices that tells an in-order reply from a reordered
 * or a corrupted one.
 */

/** Messages sent and not yet answered, oldest first, as a ring of message indices. */
export class InFlight {
  private readonly index: Int32Array;
  /** 1 where a later message's reply came before an older one's. */
  private readonly answered: Uint8Array;
  private head = 0;
  count = 0;

  constructor(private readonly size: number) {
    this.index = new Int32Array(size);
    this.answered = new Uint8Array(size);
  }

  push(message: number): void {
    this.index[(this.head + this.count) % this.size] = message;
    this.count++;
  }

  /**
   * Settles the slot of the message a reply `matches`: the oldest (in
   * order), a later one (reordered: its slot is answered early), or none
   * (corrupted: the oldest slot gives way, so the window keeps moving).
   */
  settle(matches: (message: number) => boolean): "in-order" | "reordered" | "corrupted" {
    if (this.count === 0) return "corrupted";
    if (matches(this.index[this.head]!)) {
      this.settleOldest();
      return "in-order";
    }
    for (let k = 1; k < this.count; k++) {
      const slot = (this.head + k) % this.size;
      if (this.answered[slot] === 0 && matches(this.index[slot]!)) {
        this.answered[slot] = 1;
        return "reordered";
      }
    }
    this.settleOldest();
    return "corrupted";
  }

  /** The oldest slot is answered; so are the next ones that were answered early. */
  private settleOldest(): void {
    do {
      this.answered[this.head] = 0;
      this.head = (this.head + 1) % this.size;
      this.count--;
    } while (this.count > 0 && this.answered[this.head] === 1);
  }
}
