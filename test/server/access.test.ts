/**
 * Nobody gets in uninvited: the Host and Origin rules on their own, then at
 * a real server: origins, connection limits, what the server serves, and
 * where it listens.
 */
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hostAllowed, isLoopback, originAllowed } from "../../server/access.ts";
import { withServer } from "../helpers/server.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** A raw WebSocket handshake; resolves with the HTTP status code of the answer. */
function handshake(
  port: number,
  headers: Record<string, string> = {},
  target = "/ws?codec=json&payload=small",
  host = `127.0.0.1:${port}`,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      const lines = [
        `GET ${target} HTTP/1.1`,
        `Host: ${host}`,
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      ];
      socket.write(lines.join("\r\n") + "\r\n\r\n");
    });
    let data = "";
    socket.on("data", (d) => {
      data += d.toString();
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (m) {
        socket.destroy();
        resolve(Number(m[1]));
      }
    });
    socket.on("error", reject);
    setTimeout(() => reject(new Error("no answer")), 5000);
  });
}

/** A request to /ws with only the headers given. */
function request(headers: Record<string, string>): Request {
  return new Request("http://127.0.0.1:8080/ws", { headers });
}

describe("isLoopback", () => {
  it("names localhost, ::1 in its IPv6 spellings and IPv4 literals in 127.0.0.0/8 as loopback", () => {
    for (const host of [
      "localhost",
      "LOCALHOST",
      "::1",
      "[::1]",
      "0:0:0:0:0:0:0:1",
      "[0000::0001]",
      "::ffff:127.0.0.1",
      "[::ffff:7f00:1]",
      "127.0.0.1",
      "127.1.2.3",
      "127.255.255.255",
    ]) {
      expect(isLoopback(host), host).toBe(true);
    }
  });

  it("does not count other interfaces or any DNS name as loopback, however it starts", () => {
    for (const host of [
      "0.0.0.0",
      "192.168.1.10",
      "::",
      "[::2]",
      "::ffff:10.0.0.1",
      "evil.example",
      "localhost.evil.example",
      "128.0.0.1",
      "",
      "127.evil.example",
      "127.0.0.1.evil.example",
      "127.0.0.256",
      "127.0.0",
      "[::1]evil.example",
      "1::1",
      "::1::1",
    ]) {
      expect(isLoopback(host), host).toBe(false);
    }
  });
});

describe("hostAllowed", () => {
  it("lets every Host through when the server is not bound to loopback", () => {
    expect(hostAllowed(request({ host: "evil.example:8080" }), false)).toBe(true);
  });

  it("bound to loopback, lets in requests addressed to a loopback name, with or without a port", () => {
    for (const host of ["127.0.0.1:8080", "127.0.0.1", "localhost:8080", "localhost", "[::1]:8080", "[::1]"]) {
      expect(hostAllowed(request({ host }), true), host).toBe(true);
    }
  });

  it("bound to loopback, refuses any other name (DNS rebinding)", () => {
    for (const host of [
      "evil.example:8080",
      "evil.example",
      "[::2]:8080",
      "0.0.0.0:8080",
      "localhost.evil.example:8080",
    ]) {
      expect(hostAllowed(request({ host }), true), host).toBe(false);
    }
  });

  it("lets in a request without a Host header", () => {
    expect(hostAllowed(request({}), true)).toBe(true);
  });
});

describe("originAllowed", () => {
  it("lets in clients that send no Origin (not a browser)", () => {
    expect(originAllowed(request({ host: "127.0.0.1:8080" }), [])).toBe(true);
  });

  it("lets in the server's own page: Origin http:// or https:// plus the Host the request names", () => {
    expect(originAllowed(request({ host: "127.0.0.1:8080", origin: "http://127.0.0.1:8080" }), [])).toBe(true);
    expect(originAllowed(request({ host: "localhost:8080", origin: "https://localhost:8080" }), [])).toBe(true);
  });

  it("refuses another host, another port or another scheme", () => {
    for (const origin of [
      "http://evil.example",
      "http://127.0.0.1:8081",
      "http://localhost:8080",
      "ws://127.0.0.1:8080",
      "null",
    ]) {
      expect(originAllowed(request({ host: "127.0.0.1:8080", origin }), []), origin).toBe(false);
    }
    expect(originAllowed(request({ origin: "http://127.0.0.1:8080" }), []), "no Host").toBe(false);
  });

  it("lets in exactly the origins named with --allow-origin", () => {
    const allowed = ["http://localhost:3000"];
    expect(originAllowed(request({ host: "127.0.0.1:8080", origin: "http://localhost:3000" }), allowed)).toBe(true);
    expect(originAllowed(request({ host: "127.0.0.1:8080", origin: "http://localhost:3001" }), allowed)).toBe(false);
    expect(originAllowed(request({ host: "127.0.0.1:8080", origin: "http://localhost:3000/" }), allowed)).toBe(false);
  });
});

describe("origins", () => {
  it("lets in the server's own page and clients without an Origin, refuses another origin with 403", async () => {
    await withServer({}, async (server) => {
      expect(await handshake(server.port)).toBe(101);
      expect(await handshake(server.port, { Origin: `http://127.0.0.1:${server.port}` })).toBe(101);
      expect(await handshake(server.port, { Origin: "http://evil.example" })).toBe(403);
      expect(await handshake(server.port, { Origin: `http://127.0.0.1:${server.port + 1}` })).toBe(403);
      const res = await fetch(`${server.url}/ws?codec=json&payload=small`, {
        headers: { upgrade: "websocket", origin: "http://evil.example" },
      });
      expect(await res.text()).toBe(
        "origin http://evil.example may not open a socket here; start the server with --allow-origin ORIGIN to allow it\n",
      );
    });
  });

  it("answers only requests addressed to loopback, so a rebound DNS name cannot pose as the page", async () => {
    await withServer({}, async ({ port }) => {
      expect(await handshake(port, { Origin: `http://evil.example:${port}` }, undefined, `evil.example:${port}`)).toBe(
        403,
      );
      expect(await handshake(port, { Origin: `http://localhost:${port}` }, undefined, `localhost:${port}`)).toBe(101);
      expect(await handshake(port, {}, undefined, `[::1]:${port}`)).toBe(101);
    });
  });

  it("lets in an origin named with --allow-origin", async () => {
    await withServer({ allowOrigins: ["http://localhost:3000"] }, async (server) => {
      expect(await handshake(server.port, { Origin: "http://localhost:3000" })).toBe(101);
      expect(await handshake(server.port, { Origin: "http://localhost:3001" })).toBe(403);
    });
  });
});

describe("limits", () => {
  it("refuses connections over --max-connections with 503 instead of accepting and dropping them", async () => {
    await withServer({ maxConnections: 2 }, async (server) => {
      const url = `ws://127.0.0.1:${server.port}/ws?codec=json&payload=small`;
      const open = (): Promise<WebSocket> =>
        new Promise((resolve, reject) => {
          const ws = new WebSocket(url);
          ws.onopen = () => resolve(ws);
          ws.onerror = () => reject(new Error("refused"));
        });
      const a = await open();
      const b = await open();
      expect(await handshake(server.port)).toBe(503);
      const res = await fetch(`${server.url}/ws?codec=json&payload=small`, { headers: { upgrade: "websocket" } });
      expect(res.status).toBe(503);
      expect(await res.text()).toBe("too many connections: this server accepts 2 at once (--max-connections)\n");
      a.close();
      // Wait for the server to count the close, not for a fixed time.
      for (let i = 0; i < 500; i++) {
        if ((await server.health()).connections < 2) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(await handshake(server.port)).toBe(101);
      b.close();
    });
  });
});

describe("what the server serves", () => {
  it("serves the page and its assets only: no sources, no traversal, no listing", async () => {
    await withServer({}, async (server) => {
      expect((await fetch(`${server.url}/`)).status).toBe(200);
      for (const target of [
        "/../package.json",
        "/%2e%2e/package.json",
        "/..%2fpackage.json",
        "/package.json",
        "/server.ts",
        "/bench/page/app.ts",
        "/node_modules/",
        "/.git/config",
        "//etc/passwd",
      ]) {
        const status = await new Promise<number>((resolve, reject) => {
          const socket = net.connect(server.port, "127.0.0.1", () =>
            socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
          );
          let data = "";
          socket.on("data", (d) => (data += d.toString()));
          socket.on("end", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0)));
          socket.on("error", reject);
        });
        expect(status, target).toBe(404);
      }
    });
  });

  // Tests the command line itself (its warning on stderr), so it starts `bun server.ts` directly.
  it("warns in one line when told to listen beyond loopback", async () => {
    const child = spawn(process.execPath, ["server.ts", "--host", "0.0.0.0", "--port", "0"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const ready = await new Promise<string>((resolve) =>
      child.stdout.once("data", (d: Buffer) => resolve(d.toString())),
    );
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    expect(JSON.parse(ready.split("\n")[0]!).event).toBe("ready");
    expect(stderr).toBe(
      "server: warning: listening on 0.0.0.0, reachable from other machines; the benchmark server has no authentication\n",
    );
  });
});
