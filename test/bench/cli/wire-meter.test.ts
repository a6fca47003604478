import { describe, expect, it } from "vitest";
import { FrameCounter, WireMeter } from "../../../bench/cli/wire-meter.ts";

/** One WebSocket frame (RFC 6455 5.2): FIN, RSV1 when compressed, the opcode, the length, a mask when masked. */
function frame(opcode: number, payload: number, o: { masked?: boolean; compressed?: boolean } = {}): Uint8Array {
  const head = [0x80 | (o.compressed ? 0x40 : 0) | opcode];
  const mask = o.masked ? 0x80 : 0;
  if (payload < 126) head.push(mask | payload);
  else if (payload < 65536) head.push(mask | 126, payload >> 8, payload & 255);
  else
    head.push(
      mask | 127,
      0,
      0,
      0,
      0,
      (payload >>> 24) & 255,
      (payload >> 16) & 255,
      (payload >> 8) & 255,
      payload & 255,
    );
  if (o.masked) head.push(1, 2, 3, 4);
  const out = new Uint8Array(head.length + payload);
  out.set(head);
  out.fill(0x41, head.length);
  return out;
}

const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

describe("counting WebSocket frames on the wire", () => {
  const head = new TextEncoder().encode(
    "GET /ws?codec=json&payload=large&id=x HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\n\r\n",
  );
  const frames = [
    frame(1, 33, { masked: true }),
    frame(9, 4, { masked: true }),
    frame(2, 300, { masked: true, compressed: true }),
    frame(8, 2, { masked: true }),
    frame(2, 70_000, { masked: true }),
  ];
  const stream = concat([head, ...frames]);
  const data = [33 + 6, 300 + 8, 70_000 + 14];

  it("counts data frames with their headers and masks, leaves out the upgrade and control frames, whatever the chunking", () => {
    for (const size of [1, 2, 3, 7, 64, 1000, stream.length]) {
      const counter = new FrameCounter();
      for (let i = 0; i < stream.length; i += size) counter.feed(stream.subarray(i, i + size));
      expect(counter.count, `chunks of ${size}`).toEqual({
        bytes: data.reduce((a, b) => a + b),
        messages: 3,
        compressed: 1,
      });
      expect(counter.head).toMatch(/^GET \/ws\?codec=json&payload=large/);
    }
  });

  it("relays every byte unchanged and keeps the counts per codec and payload", async () => {
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req, srv) => (srv.upgrade(req) ? undefined : new Response("plain")),
      websocket: { perMessageDeflate: true, message: (ws, m) => void ws.send(m, true) },
    });
    const meter = WireMeter.start(`http://127.0.0.1:${server.port}`);
    try {
      // A plain HTTP request through the relay is forwarded and not counted.
      expect(await (await fetch(meter.url)).text()).toBe("plain");
      const text = "hello world ".repeat(30);
      const ws = new WebSocket(`${meter.url.replace("http", "ws")}/ws?codec=json&payload=large&id=1`);
      const echoed: string[] = [];
      await new Promise<void>((resolve, reject) => {
        ws.onopen = () => ws.send(text);
        ws.onmessage = (e) => {
          echoed.push(String(e.data));
          if (echoed.length < 5) ws.send(text);
          else ws.close();
        };
        ws.onclose = () => resolve();
        ws.onerror = () => reject(new Error("socket error"));
      });
      expect(echoed).toEqual(Array(5).fill(text));
      const count = meter.counts().get("json large")!;
      expect(count.up.messages).toBe(5);
      expect(count.down.messages).toBe(5);
      // The server compressed its echoes of this repetitive text far below its 360 bytes.
      expect(count.down.compressed).toBe(5);
      expect(count.down.bytes / 5).toBeLessThan(100);
      expect([...meter.counts().keys()]).toEqual(["json large"]);
    } finally {
      meter.stop();
      server.stop(true);
    }
  });
});
