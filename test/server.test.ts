/**
 * The real server (Bun.serve on port 0, in this process or as a child
 * process) with real clients: Bun's WebSocket here, npm `ws` under Node in
 * test/client/node-client.test.ts.
 */
import { BUILT_IN } from "../protocols/registry.ts";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { performanceClock } from "../client/harness/clock.ts";
import { makeMessages } from "../client/harness/generator.ts";
import { PAYLOAD_NAMES, type PayloadName } from "../protocols/messages.ts";
import { spawnServer } from "../bench/cli/processes/server-process.ts";
import type { SocketMode } from "../client/harness/settings.ts";
import { fetchServerStats, openSocket, type WebSocketClass } from "../client/socket/client-connection.ts";
import { runSocketCase } from "../client/socket/runner.ts";
import { CLOSE, MAX_PAYLOAD_BYTES, socketCodecNames, socketUrl } from "../protocols/contract.ts";
import { parseServerArgs, SERVER_DEFAULTS } from "../server.ts";
import { serverForEachTest, withServer } from "./helpers/server.ts";

const server = serverForEachTest();

const WS = globalThis.WebSocket as unknown as WebSocketClass;
let ids = 0;

function runCase(codec: string, payload: PayloadName, mode: SocketMode, count: number, window = 32) {
  return runSocketCase({
    server: server.url,
    catalog: BUILT_IN,
    codec,
    payload,
    mode,
    messages: makeMessages(payload, { count, seed: 5, fixed: false }),
    window,
    stallTimeoutMs: 10_000,
    clock: performanceClock,
    timerOverheadNs: 40,
    WebSocket: WS,
    id: `test-${ids++}`,
  });
}

/** Opens a socket and resolves with the close event the server sends. */
async function closeAfterSending(
  codec: string,
  payload: PayloadName,
  data: string | Uint8Array,
): Promise<{ code: number; reason: string }> {
  const ws = await openSocket(WS, socketUrl(server.url, codec, payload, `bad-${ids++}`), 5000);
  return new Promise((resolve) => {
    ws.onclose = (ev) => resolve({ code: ev.code, reason: ev.reason });
    ws.send(data as string);
  });
}

describe("server: echo contract", () => {
  for (const codec of socketCodecNames(BUILT_IN)) {
    for (const payload of PAYLOAD_NAMES) {
      it(`${codec} ${payload}: every reply decodes to the message sent`, async () => {
        const f = await runCase(codec, payload, "roundtrip", 40);
        expect(f.error).toBeUndefined();
        expect([f.sent, f.received, f.lost, f.corrupted, f.reordered]).toEqual([40, 40, 0, 0, 0]);
        expect(f.server?.messages).toBe(40);
        expect(f.server?.dropped).toBe(0);
        if (codec !== "raw") expect(f.server!.decodeNs).toBeGreaterThan(0);
      });
    }
  }

  it("re-encodes rather than bouncing bytes: a JSON reply is the server's own serialization", async () => {
    const ws = await openSocket(WS, socketUrl(server.url, "json", "small", "spaces"), 5000);
    const reply = await new Promise<string>((resolve) => {
      ws.onmessage = (ev) => resolve(ev.data as string);
      ws.send('{ "text" : "Hello World!" ,  "num" : 123 }');
    });
    ws.close();
    expect(reply).toBe('{"text":"Hello World!","num":123}');
  });

  it("streams 100,000 messages with a bounded window and loses none", async () => {
    const f = await runCase("custom-binary", "small", "stream", 100_000, 64);
    expect(f.error).toBeUndefined();
    expect(f.sent).toBe(100_000);
    expect(f.received).toBe(100_000);
    expect(f.lost + f.corrupted + f.reordered).toBe(0);
    expect(f.server?.messages).toBe(100_000);
    expect(f.server?.dropped).toBe(0);
  });

  it("serves per-connection figures at /stats/ID, and 404 for an unknown id", async () => {
    const f = await runCase("msgpack", "medium", "roundtrip", 25);
    const stats = await fetchServerStats(server.url, f.server!.id);
    expect(stats).toMatchObject({ codec: "msgpack", payload: "medium", messages: 25, closeCode: CLOSE.normal });
    expect(stats!.bytesIn).toBe(25 * 102);
    expect((await fetch(`${server.url}/stats/nope`)).status).toBe(404);
  });
});

describe("server: bad requests and bad frames", () => {
  it("answers an unknown codec or payload with 400 naming the valid values, before any upgrade", async () => {
    const res = await fetch(`${server.url}/ws?codec=yaml&payload=small`, { headers: { upgrade: "websocket" } });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe(`unknown codec 'yaml'; valid codecs: ${socketCodecNames(BUILT_IN).join(", ")}\n`);
    const res2 = await fetch(`${server.url}/ws?codec=json&payload=huge`);
    expect(res2.status).toBe(400);
    expect(await res2.text()).toContain("valid payloads: small, medium, large");
  });

  it("answers a plain GET on /ws with 426", async () => {
    const res = await fetch(`${server.url}/ws?codec=json&payload=small`);
    expect(res.status).toBe(426);
    expect(res.headers.get("upgrade")).toBe("websocket");
  });

  it("closes an undecodable frame with 1007 naming the codec and the error, and keeps serving", async () => {
    const closed = await closeAfterSending("custom-binary", "small", Uint8Array.from([0x29, 0x05, 0x41]));
    expect(closed.code).toBe(CLOSE.invalidPayload);
    expect(closed.reason).toMatch(/^custom-binary: RangeError: custom-binary: truncated message/);
    const msgpackClosed = await closeAfterSending("msgpack", "small", Uint8Array.from([0xc1]));
    expect(msgpackClosed.code).toBe(CLOSE.invalidPayload);
    expect(msgpackClosed.reason).toMatch(/^msgpack: /);
    const jsonClosed = await closeAfterSending("json", "small", "{not json");
    expect(jsonClosed.code).toBe(CLOSE.invalidPayload);
    // A second client is served as before.
    const f = await runCase("custom-binary", "small", "roundtrip", 10);
    expect(f.error).toBeUndefined();
    expect(f.received).toBe(10);
  });

  it("closes the wrong frame type with 1007", async () => {
    const text = await closeAfterSending("custom-binary", "small", "hello");
    expect(text.code).toBe(CLOSE.invalidPayload);
    expect(text.reason).toBe("custom-binary expects binary frames, got a text frame");
    const binary = await closeAfterSending("json", "small", new TextEncoder().encode('{"text":"a","num":1}'));
    expect(binary.code).toBe(CLOSE.invalidPayload);
    expect(binary.reason).toBe("json expects text frames, got a binary frame");
  });

  it("closes a frame over maxPayloadLength with 1009", async () => {
    const closed = await closeAfterSending("custom-binary", "small", new Uint8Array(MAX_PAYLOAD_BYTES + 1));
    expect(closed.code).toBe(CLOSE.tooBig);
    const f = await runCase("raw", "large", "roundtrip", 5);
    expect(f.error).toBeUndefined();
  });

  it("reports a refused connection clearly", async () => {
    // A port a server listened on and has given back.
    const port = await withServer({}, async (gone) => gone.port);
    const f = await runSocketCase({
      server: `http://127.0.0.1:${port}`,
      catalog: BUILT_IN,
      codec: "json",
      payload: "small",
      mode: "roundtrip",
      messages: makeMessages("small", { count: 1, seed: 1, fixed: true }),
      window: 1,
      stallTimeoutMs: 3000,
      clock: performanceClock,
      timerOverheadNs: 0,
      WebSocket: WS,
      id: "refused",
    });
    expect(f.error).toMatch(/^cannot connect to ws:\/\/127\.0\.0\.1:\d+\/ws/);
  });
});

// These test the server as its own process (spawnServer and the command line) themselves, so they start it directly.
describe("server process", () => {
  it("prints one JSON ready line first, and exits 0 on SIGTERM", async () => {
    const proc = await spawnServer();
    expect(proc.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${proc.url}/ws?codec=json&payload=small`);
    expect(res.status).toBe(426);
    await proc.stop();
    expect(await proc.exited).toBe("0");
  });

  it("exits 0 on SIGINT too, closing open connections", async () => {
    const proc = await spawnServer();
    const ws = await openSocket(WS, socketUrl(proc.url, "json", "small", "sigint"), 5000);
    const closed = new Promise<number>((resolve) => (ws.onclose = (ev) => resolve(ev.code)));
    process.kill(proc.pid, "SIGINT");
    expect(await proc.exited).toBe("0");
    expect(await closed).toBeGreaterThan(0);
  });

  it("with --exit-with-stdin, stops when its standard input closes (the bench's server never outlives the bench)", async () => {
    const child = Bun.spawn([process.execPath, "server.ts", "--port", "0", "--exit-with-stdin"], {
      cwd: import.meta.dirname + "/..",
      stdin: "pipe",
      stdout: "pipe",
    });
    const reader = child.stdout.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(JSON.parse(first.split("\n")[0]!).event).toBe("ready");
    await child.stdin.end();
    expect(await child.exited).toBe(0);
  });

  it("refuses a bad flag with one line and exit code 2", async () => {
    const r = Bun.spawnSync([process.execPath, "server.ts", "--prot", "80"], { cwd: import.meta.dirname + "/.." });
    expect(r.exitCode).toBe(2);
    expect(r.stderr.toString()).toMatch(
      /^server: unknown option '--prot'; valid options: --host, --port, --deflate, --idle-timeout, --allow-origin, --max-connections, --max-queued-bytes, --max-total-queued-bytes, --send-timeout, --messages, --proto, --proto-type, --codec-module, --csp, --processes, --backplane, --backplane-channel, --exit-with-stdin, --help\n$/,
    );
    // One near miss: the flag it was meant to be.
    const near = Bun.spawnSync([process.execPath, "server.ts", "--deflat"], { cwd: import.meta.dirname + "/.." });
    expect(near.exitCode).toBe(2);
    expect(near.stderr.toString()).toBe(
      "server: unknown option '--deflat'; did you mean --deflate? (--help lists every option)\n",
    );
  });
});

describe("server: well-formed data of the wrong shape", () => {
  it("closes with 1007 naming what is wrong, and never echoes it", async () => {
    const json = await closeAfterSending("json", "small", "[1,2,3]");
    expect(json).toEqual({
      code: CLOSE.invalidPayload,
      reason: "json: not a small message: expected a small message object, got an array",
    });
    const extra = await closeAfterSending("json", "small", '{"text":"a","num":1,"admin":true}');
    expect(extra.reason).toBe("json: not a small message: unexpected field 'admin'");
    const medium = await closeAfterSending("json", "medium", JSON.stringify({ text: "a", num: 1 }));
    expect(medium.reason).toBe("json: not a medium message: field 'text2' is missing");
  });
});

describe("server flags", () => {
  it("defaults every flag, and reads each one", () => {
    expect(parseServerArgs([])).toEqual(SERVER_DEFAULTS);
    const o = parseServerArgs([
      ...[
        "--host",
        "::1",
        "--port",
        "8080",
        "--deflate",
        "--idle-timeout",
        "30",
        "--allow-origin",
        "http://localhost:3000/",
        "--max-connections",
        "4",
      ],
      ...[
        "--max-queued-bytes",
        "65536",
        "--max-total-queued-bytes",
        "1048576",
        "--send-timeout",
        "3",
        "--csp",
        "strict",
      ],
      ...["--processes", "3", "--backplane", "redis://10.0.0.7:6380", "--backplane-channel", "chat:"],
    ]);
    expect(o).toEqual({
      csp: "strict",
      host: "::1",
      port: 8080,
      deflate: true,
      idleTimeoutS: 30,
      allowOrigins: ["http://localhost:3000"],
      maxConnections: 4,
      exitWithStdin: false,
      maxQueuedBytes: 65536,
      maxTotalQueuedBytes: 1048576,
      sendTimeoutS: 3,
      userMessages: [],
      codecModules: [],
      processes: 3,
      backplane: "redis://10.0.0.7:6380",
      backplaneChannel: "chat:",
    });
  });

  it("refuses a bad value with one line naming the flag and its range", () => {
    expect(() => parseServerArgs(["--port", "70000"])).toThrow(
      "--port must be an integer from 0 to 65535, got '70000'",
    );
    expect(() => parseServerArgs(["--idle-timeout", "0"])).toThrow(
      "--idle-timeout must be an integer from 1 to 960 seconds, got '0'",
    );
    expect(() => parseServerArgs(["--max-connections", "1e3"])).toThrow(
      "--max-connections must be an integer from 1 to 100000, got '1e3'",
    );
    expect(() => parseServerArgs(["--allow-origin", "localhost:3000/x"])).toThrow(/^--allow-origin must be an origin/);
    expect(() => parseServerArgs(["--csp", "lax"])).toThrow("--csp: unknown value 'lax'; valid values: off, strict");
  });
});

describe("abuse at the HTTP layer, from raw sockets (Bun's own limits)", () => {
  it("200 slowloris connections sending a header byte every 2 s are all closed within 30 s, and /info answers throughout", {
    timeout: 60_000,
  }, async () => {
    const { port, hostname } = new URL(server.url);
    const request = `GET /info HTTP/1.1\r\nHost: ${hostname}:${port}\r\nX-Slow: ${"a".repeat(100)}\r\n\r\n`;
    const started = performance.now();
    const timers: ReturnType<typeof setInterval>[] = [];
    const closes = Array.from(
      { length: 200 },
      () =>
        new Promise<number>((resolve) => {
          const socket = net.connect(Number(port), hostname);
          let i = 0;
          const timer = setInterval(() => i < request.length && socket.write(request[i++]!), 2000);
          timers.push(timer);
          socket.on("error", () => undefined);
          socket.on("close", () => {
            clearInterval(timer);
            resolve((performance.now() - started) / 1000);
          });
        }),
    );
    let served = 0;
    let allClosed = false;
    void Promise.all(closes).then(() => (allClosed = true));
    while (!allClosed && performance.now() - started < 30_000) {
      expect((await fetch(`${server.url}/info`)).status).toBe(200);
      served++;
      await new Promise((r) => setTimeout(r, 250));
    }
    for (const t of timers) clearInterval(t);
    expect(allClosed).toBe(true);
    expect(Math.max(...(await Promise.all(closes)))).toBeLessThan(30);
    expect(served).toBeGreaterThan(0);
  });

  it("a 64 KB or 1 MB header gets 431 and a closed connection", async () => {
    const { port, hostname } = new URL(server.url);
    for (const size of [64 * 1024, 1024 * 1024]) {
      const answer = await new Promise<string>((resolve) => {
        const socket = net.connect(Number(port), hostname, () =>
          socket.write(`GET /info HTTP/1.1\r\nHost: ${hostname}:${port}\r\nX-Big: ${"a".repeat(size)}\r\n\r\n`),
        );
        let data = "";
        socket.on("data", (d) => (data += d.toString("latin1")));
        socket.on("error", () => undefined);
        socket.on("close", () => resolve(data));
      });
      expect(answer, `${size} bytes`).toMatch(/^HTTP\/1\.1 431 /);
    }
    expect((await fetch(`${server.url}/info`)).status).toBe(200);
  });
});
