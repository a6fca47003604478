/**
 * Every request path ends in a documented status with one plain line: malformed Hosts, escapes
 * and request lines get 400, a DNS name that only looks like loopback gets 403, POST /gc refuses
 * other origins and comes at most every GC_MIN_INTERVAL_MS; /health counts each refusal. Sent
 * byte for byte from a raw socket to a real server.
 */
import { describe, expect, it } from "vitest";
import { GC_MIN_INTERVAL_MS } from "../../server/requests.ts";
import { rawRequest, upgradeRequest } from "../helpers/raw-http.ts";
import { serverForFile, withServer, type ServerHealth } from "../helpers/server.ts";

const server = serverForFile();

const get = (path: string, host: string | null, version = "1.1"): string =>
  `GET ${path} HTTP/${version}\r\n${host === null ? "" : `Host: ${host}\r\n`}\r\n`;

const refused = async (): Promise<ServerHealth["refused"]> => (await server.health()).refused;

/** Nothing of the server's files, paths or stack ever comes back. */
function expectPlainLine(body: string): void {
  expect(body).toMatch(/^[^\n]+\n$/);
  expect(body).not.toMatch(/server\.ts|routes\.ts|\/work\/|at .*:\d+:\d+|<html/i);
}

describe("requests no client should send", () => {
  it("a DNS name that starts like a loopback address is not loopback: 403 on /ws and /info", async () => {
    const before = await refused();
    for (const name of ["127.0.0.1.evil.com", "127.evil.com", "localhost.evil.com"]) {
      const host = `${name}:${server.port}`;
      const ws = await rawRequest(server.port, upgradeRequest("/ws?codec=json&payload=small", host));
      expect(ws.status, name).toBe(403);
      expectPlainLine(ws.body);
      expect((await rawRequest(server.port, get("/info", host))).status, name).toBe(403);
    }
    for (const name of ["127.0.0.1", "localhost", "[::1]", "[0:0:0:0:0:0:0:1]"]) {
      expect((await rawRequest(server.port, get("/info", `${name}:${server.port}`))).status, name).toBe(200);
    }
    expect((await refused()).foreignHost - before.foreignHost).toBe(6);
  });

  it("a malformed Host, escape or request target gets a plain 400, never Bun's error page", async () => {
    const before = await refused();
    const cases: [string, string][] = [
      [get("/stats/%", `127.0.0.1:${server.port}`), "malformed percent-escape in the connection id\n"],
      [get("/stats/%zz", `127.0.0.1:${server.port}`), "malformed percent-escape in the connection id\n"],
      [get("/info", "[::1]evil.com"), "malformed Host header\n"],
      [get("/info", "127.0.0.1:80:80"), "malformed Host header\n"],
      [get("/info", "a b"), "malformed Host header\n"],
      [get("/stats/%", null, "1.0"), "a request needs a Host header\n"],
    ];
    for (const [request, body] of cases) {
      const answer = await rawRequest(server.port, request);
      expect(answer.status, request).toBe(400);
      expect(answer.body, request).toBe(body);
      expectPlainLine(answer.body);
    }
    expect((await refused()).badRequest - before.badRequest).toBe(cases.length);
  });

  it("POST /gc: 403 for another origin, 429 sooner than the interval, 204 for the bench", async () => {
    const host = `127.0.0.1:${server.port}`;
    const post = (origin?: string): string =>
      `POST /gc HTTP/1.1\r\nHost: ${host}\r\n${origin ? `Origin: ${origin}\r\n` : ""}Content-Length: 0\r\n\r\n`;
    const before = await refused();
    const foreign = await rawRequest(server.port, post("http://evil.com"));
    expect(foreign.status).toBe(403);
    expect(foreign.body).toBe("origin http://evil.com may not ask this server to collect garbage\n");
    // The page itself may ask.
    await new Promise((r) => setTimeout(r, GC_MIN_INTERVAL_MS));
    expect((await rawRequest(server.port, post(`http://${host}`))).status).toBe(204);
    const burst = await Promise.all(Array.from({ length: 20 }, () => rawRequest(server.port, post())));
    const statuses = burst.map((a) => a.status);
    expect(statuses.filter((s) => s === 204).length).toBeLessThanOrEqual(1);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(19);
    expect(burst.find((a) => a.status === 429)!.headers).toMatch(/\r\nretry-after: 1/i);
    const after = await refused();
    expect(after.foreignOrigin - before.foreignOrigin).toBe(1);
    expect(after.gcTooSoon - before.gcTooSoon).toBe(statuses.filter((s) => s === 429).length);
    // Once the interval has passed, the bench's request collects again.
    await new Promise((r) => setTimeout(r, GC_MIN_INTERVAL_MS + 10));
    expect((await fetch(`${server.url}/gc`, { method: "POST" })).status).toBe(204);
  });
});

describe("the page's Content-Security-Policy (--csp)", () => {
  it("none by default; with --csp strict, own origin only and no 'unsafe-eval', on every file of the page", async () => {
    expect((await fetch(`${server.url}/`)).headers.get("content-security-policy")).toBeNull();
    await withServer({ csp: "strict" }, async (strict) => {
      const page = await fetch(`${strict.url}/`);
      const policy = page.headers.get("content-security-policy")!;
      expect(policy).toMatch(/script-src 'self'/);
      expect(policy).not.toMatch(/unsafe-eval|unsafe-inline/);
      const script = /src="([^"]+\.js)"/.exec(await page.text())![1]!;
      expect((await fetch(new URL(script, strict.url))).headers.get("content-security-policy")).toBe(policy);
    });
  });
});
