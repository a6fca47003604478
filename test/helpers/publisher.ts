/** A fanout publisher for tests that flood a topic: a window of one message in flight, as the bench's fanout keeps it. */

/** What a flooding publisher has done so far. */
export interface Flood {
  /** Messages sent, and heard back (the server echoes a publisher's messages to it: its flow control). */
  sent(): number;
  heard(): number;
}

/** Keeps `window` copies of `message` in flight on the open publisher `pub` until it closes. */
export function keepPublishing(pub: WebSocket, message: Uint8Array, window = 64): Flood {
  let heard = 0;
  let sent = 0;
  pub.onmessage = () => {
    heard++;
    while (sent - heard < window) {
      pub.send(message);
      sent++;
    }
  };
  for (; sent < window; sent++) pub.send(message);
  return { sent: () => sent, heard: () => heard };
}
