/**
 * Messages a connection sent while its replies could not go out: kept undecoded, in order,
 * with their bytes counted against the connection's budget and the server's. First in, first
 * out, O(1) per operation (a head index, compacted now and then, never `Array.shift`).
 */

/** A message as Bun delivers it: text, or binary bytes. */
export type Incoming = string | Uint8Array;

export class Inbox {
  private items: Incoming[] = [];
  private head = 0;
  /** Bytes held (UTF-16 units x 2 for text, a fair bound on what a string costs). */
  bytes = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(message: Incoming): void {
    this.items.push(message);
    this.bytes += incomingBytes(message);
  }

  /** The oldest message and its bytes, or undefined when empty. */
  shift(): { message: Incoming; bytes: number } | undefined {
    if (this.head >= this.items.length) return undefined;
    const message = this.items[this.head]!;
    this.items[this.head] = "";
    this.head++;
    const bytes = incomingBytes(message);
    this.bytes -= bytes;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return { message, bytes };
  }

  /** Forgets everything, returning the bytes it held. */
  clear(): number {
    const bytes = this.bytes;
    this.items = [];
    this.head = 0;
    this.bytes = 0;
    return bytes;
  }
}

/** What a message costs to hold. */
export function incomingBytes(message: Incoming): number {
  return typeof message === "string" ? message.length * 2 : message.byteLength;
}
