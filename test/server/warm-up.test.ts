/**
 * POST /warm-up runs a codec's decode and encode in the server's own process over the frames a
 * client sends (packFrames), and refuses, with one plain line each, what it cannot run: an unknown
 * codec or payload, a count out of range, a body that is not frames, a frame the codec cannot
 * decode, a page from another origin, a body over the limit. Against a real server process.
 */
import { describe, expect, it } from "vitest";
import {
  packFrames,
  unpackFrames,
  WARM_UP_MAX_BYTES,
  WARM_UP_MAX_MESSAGES,
  WARM_UP_PATH,
} from "../../protocols/contract.ts";
import type { WarmUpAnswer } from "../../server/warm-up.ts";
import { customBinary } from "../../protocols/custom-binary.ts";
import { messagesFor } from "../../client/harness/generator.ts";
import { serverForFile } from "../helpers/server.ts";
import { testSettings } from "../helpers/settings.ts";

const server = serverForFile();

function warmUp(query: string, body: Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}${WARM_UP_PATH}?${query}`, { method: "POST", body, headers });
}

describe("frames in a warm-up body", () => {
  it("come back as they went: text as strings, bytes as bytes, empty ones too", () => {
    const bytes = new Uint8Array([0, 1, 255]);
    const body = packFrames(['{"é":1}', "", "x"]);
    expect(unpackFrames(body, "text")).toEqual(['{"é":1}', "", "x"]);
    expect(unpackFrames(packFrames([bytes, new Uint8Array(0)]), "binary")).toEqual([bytes, new Uint8Array(0)]);
  });

  it("a length that runs past the end, or a cut length, is no body of frames", () => {
    const body = packFrames(["abcdef"]);
    expect(unpackFrames(body.subarray(0, body.length - 1), "text")).toBeUndefined();
    expect(unpackFrames(new Uint8Array([1, 0]), "text")).toBeUndefined();
  });
});

describe("POST /warm-up", () => {
  it("runs the codec's decode and encode the number of times asked, cycling through the frames", async () => {
    const messages = messagesFor(testSettings({ payloads: ["large"] }), "large", 20);
    const cb = customBinary.forPayload("large");
    for (const [codec, frames] of [
      ["json", messages.map((m) => JSON.stringify(m))],
      ["custom-binary", messages.map((m) => cb.encode(m) as Uint8Array)],
    ] as const) {
      const res = await warmUp(`codec=${codec}&payload=large&messages=2000`, packFrames(frames));
      expect(res.status, codec).toBe(200);
      const answer = (await res.json()) as WarmUpAnswer;
      expect(answer, codec).toMatchObject({ codec, payload: "large", frames: 20, messages: 2000 });
      expect(answer.ms, codec).toBeGreaterThan(0);
    }
  });

  it("raw decodes nothing: it runs no calls", async () => {
    const res = await warmUp("codec=raw&payload=small&messages=10", packFrames([new Uint8Array([1, 2])]));
    expect(await res.json()).toMatchObject({ codec: "raw", frames: 1, messages: 0 });
  });

  it("refuses with one line what it cannot run, and the server carries on", async () => {
    const json = packFrames(["{}"]);
    const cases: [string, Uint8Array<ArrayBuffer>, number, RegExp][] = [
      ["codec=nope&payload=small&messages=10", json, 400, /^unknown codec 'nope'; valid codecs: .*json/],
      ["codec=json&payload=nope&messages=10", json, 400, /^unknown payload 'nope'; valid payloads: /],
      ["codec=json&payload=small", json, 400, /^messages must be an integer from 1 to 1000000, got ''/],
      ["codec=json&payload=small&messages=0", json, 400, /^messages must be an integer from 1 to/],
      [
        `codec=json&payload=small&messages=${WARM_UP_MAX_MESSAGES + 1}`,
        json,
        400,
        /^messages must be an integer from 1 to/,
      ],
      ["codec=json&payload=small&messages=1e3", json, 400, /^messages must be an integer from 1 to/],
      ["codec=json&payload=small&messages=10", new Uint8Array(0), 400, /^the body must hold one frame or more/],
      [
        "codec=json&payload=small&messages=10",
        new Uint8Array([9, 0, 0, 0, 1]),
        400,
        /^the body must hold one frame or more/,
      ],
      ["codec=json&payload=small&messages=10", packFrames(["{", "{}"]), 400, /^json: /],
    ];
    for (const [query, body, status, line] of cases) {
      const res = await warmUp(query, body);
      const text = await res.text();
      expect(res.status, query).toBe(status);
      expect(text, query).toMatch(line);
      expect(text, query).toMatch(/^[^\n]+\n$/);
    }
    expect((await server.health()).ok).toBe(true);
  });

  it("a page from another origin may not ask; a body over the limit is refused before it is read", async () => {
    const before = (await server.health()).refused.foreignOrigin;
    const foreign = await warmUp("codec=json&payload=small&messages=10", packFrames(["{}"]), {
      origin: "http://evil.com",
    });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toBe("origin http://evil.com may not ask this server to warm up\n");
    expect((await server.health()).refused.foreignOrigin - before).toBe(1);
    const big = await warmUp("codec=json&payload=small&messages=10", new Uint8Array(WARM_UP_MAX_BYTES + 1));
    expect(big.status).toBe(413);
    expect(await big.text()).toMatch(/^a warm-up body may be 16777216 bytes at most, got 16777217\n$/);
  });
});
