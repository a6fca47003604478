// A k6 test written by `bun run bench --export-k6 DIR` (bench/cli/k6-export.ts).
// It sends the benchmark's pre-encoded frames to a `bun run server` and checks
// every echo against what it sent, first in first out per connection. k6 never
// runs a codec: the frames were encoded by the bench, and the server echoes
// each one re-encoded, which for every codec here gives the same bytes.
//
// Exported with --modes route (config.test "route"), each connection is a
// router instead (role=router, way=forward: the server reads each frame's
// routing key and publishes the frame untouched to that room), in rooms of its
// own beside two members of them, one in the even rooms and one in the odd
// ones; each member checks every frame it gets is the next one sent to its
// rooms, byte for byte. Latency is then from publish to delivery.
//
//   k6 run DIR/script.js                                   (one machine)
//   k6 run --execution-segment 0:1/2 --execution-segment-sequence 0,1/2,1 DIR/script.js
//   k6 run --execution-segment 1/2:1 --execution-segment-sequence 0,1/2,1 DIR/script.js
//
// Override the export's load model with -e: SERVER=ws://host:port,
// CONNECTIONS, RATE (messages per second per connection), MESSAGES (per
// connection and case), RAMP (seconds over which connections start), STALL
// (seconds to wait for the last echoes), K6_VERSION (the output of `k6 version`,
// for the report). Latency is measured with Date.now() (1 ms resolution), from
// when each message went out (wsbench_echo_ms) and from when it was due
// (wsbench_due_ms: k6's own lateness in sending counts too).

import { check } from "k6";
import { SharedArray } from "k6/data";
import encoding from "k6/encoding";
import { Counter, Trend } from "k6/metrics";
import { WebSocket } from "k6/websockets";

const config = JSON.parse(open("./config.json"));
const env = (name, fallback) => (__ENV[name] !== undefined && __ENV[name] !== "" ? __ENV[name] : fallback);
const SERVER = String(env("SERVER", config.server)).replace(/^http/, "ws").replace(/\/$/, "");
const CONNECTIONS = Number(env("CONNECTIONS", config.connections));
const RATE = Number(env("RATE", config.rate));
const MESSAGES = Number(env("MESSAGES", config.messages));
const RAMP_S = Number(env("RAMP", config.rampS));
const STALL_S = Number(env("STALL", config.stallS));
const ROUTE = config.test === "route";

// Each case's frames, read once and shared by every VU (open(file, "b") would give each VU its own copy).
const frames = config.cases.map(
  (c) =>
    new SharedArray(`${c.codec} ${c.payload}`, () => {
      const bytes = new Uint8Array(open(`./frames/${c.file}`, "b"));
      const out = [];
      for (let p = 0; p < bytes.length; ) {
        const n = (bytes[p] | (bytes[p + 1] << 8) | (bytes[p + 2] << 16) | (bytes[p + 3] << 24)) >>> 0;
        p += 4;
        const frame = bytes.slice(p, p + n);
        p += n;
        // Text frames are UTF-8; k6 has no TextDecoder, so they travel as base64 and are sent as strings.
        out.push(encoding.b64encode(frame.buffer, "std"));
      }
      return out;
    }),
);

const sent = new Counter("wsbench_sent");
const received = new Counter("wsbench_received");
const lost = new Counter("wsbench_lost");
// From when each message went out (the service time), and from when it was due (what a user waiting on
// a schedule sees: the sender's own lateness counts too).
const latency = new Trend("wsbench_echo_ms", true);
const dueLatency = new Trend("wsbench_due_ms", true);

// One scenario per codec and payload, one after another; each connection sends MESSAGES on a fixed
// schedule. A case gets its sending time and a second; only a case that loses echoes runs on into the
// next one's start while it waits STALL seconds for them (and its losses fail the test).
const caseSeconds = RAMP_S + MESSAGES / RATE + 1;
export const options = {
  scenarios: Object.fromEntries(
    config.cases.map((c, i) => [
      `${c.codec}__${c.payload}`.replace(/[^A-Za-z0-9_]/g, "_"),
      {
        executor: "per-vu-iterations",
        vus: CONNECTIONS,
        iterations: 1,
        startTime: `${Math.ceil(i * caseSeconds)}s`,
        maxDuration: `${Math.ceil(caseSeconds + STALL_S + 5)}s`,
        exec: ROUTE ? "routing" : "connection",
        env: { CASE: String(i) },
        tags: { codec: c.codec, payload: c.payload, ...(ROUTE ? { test: "route" } : {}) },
      },
    ]),
  ),
  thresholds: { wsbench_lost: ["count==0"], checks: ["rate==1"] },
  // Which k6 ran, for the report's rows: k6 run -e K6_VERSION="$(k6 version)" (the script cannot ask k6).
  tags: { k6_version: String(env("K6_VERSION", "k6")).split(" (")[0] },
};

// Connections start spread over RAMP seconds, then send on a schedule that never waits for
// replies: each tick sends every message that has come due, so a late tick catches up, and
// wsbench_due_ms counts from when each message was due (a stalled sender cannot hide a stall).
// send(n, dueAt) sends message n; done() says the connection finished; stalled() runs STALL
// seconds after the last message went out, unless the returned stop() came first.
function sendOnSchedule(send, done, stalled) {
  const delay = CONNECTIONS > 1 ? ((__VU - 1) % CONNECTIONS) * ((RAMP_S * 1000) / CONNECTIONS) : 0;
  const intervalMs = 1000 / RATE;
  let next = 0;
  let stall;
  setTimeout(() => {
    const start = Date.now();
    const timer = setInterval(
      () => {
        const due = Math.min(MESSAGES, Math.floor((Date.now() - start) / intervalMs) + 1);
        while (!done() && next < due) {
          send(next, start + next * intervalMs);
          next++;
        }
        if (done() || next >= MESSAGES) {
          clearInterval(timer);
          if (!done()) stall = setTimeout(stalled, STALL_S * 1000);
        }
      },
      Math.max(1, intervalMs),
    );
  }, delay);
  return () => {
    if (stall !== undefined) clearTimeout(stall);
  };
}

// A message came back (echo) or reached its member (route): its latencies and count.
function arrived(at, expected, tags) {
  latency.add(at - expected.sentAt, tags);
  dueLatency.add(at - expected.dueAt, tags);
  received.add(1, tags);
}

// A socket that errs or closes ends its connection's test.
function endsWith(ws, finish) {
  ws.onerror = () => finish();
  ws.onclose = () => finish();
}

function sameBytes(a, b) {
  if (a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a);
  const y = new Uint8Array(b);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

export function connection() {
  const c = config.cases[Number(__ENV.CASE)];
  const tags = { codec: c.codec, payload: c.payload };
  const list = frames[Number(__ENV.CASE)];
  const text = c.frame === "text";
  // Only this case's frames are decoded, once per connection.
  const payloads = [];
  for (let i = 0; i < list.length; i++)
    payloads.push(text ? encoding.b64decode(list[i], "std", "s") : encoding.b64decode(list[i], "std"));
  const vu = __VU;
  const ws = new WebSocket(
    `${SERVER}/ws?codec=${encodeURIComponent(c.codec)}&payload=${encodeURIComponent(c.payload)}&id=k6-${vu}-${__ENV.CASE}`,
  );
  ws.binaryType = "arraybuffer";
  const inFlight = [];
  let next = 0;
  let got = 0;
  let finished = false;
  let stopStall = () => {};
  const finish = () => {
    if (finished) return;
    finished = true;
    stopStall();
    if (got < next) lost.add(next - got, tags);
    ws.close();
  };
  ws.onmessage = (e) => {
    const at = Date.now();
    const expected = inFlight.shift();
    if (expected === undefined) return;
    const frame = payloads[expected.i % payloads.length];
    const ok = text ? e.data === frame : sameBytes(e.data, frame);
    check(null, { "echo equals the frame sent": () => ok }, tags);
    arrived(at, expected, tags);
    if (++got === MESSAGES) finish();
  };
  endsWith(ws, finish);
  ws.onopen = () => {
    stopStall = sendOnSchedule(
      (n, dueAt) => {
        inFlight.push({ i: n, dueAt, sentAt: Date.now() });
        ws.send(payloads[n % payloads.length]);
        sent.add(1, tags);
        next = n + 1;
      },
      () => finished,
      finish,
    );
  };
}

// A router and its two members (--modes route): the members join their rooms (even and odd room
// indices), then the router sends on the same schedule as an echo connection; each frame must
// reach the member of its room, unchanged, in the order sent.
export function routing() {
  const c = config.cases[Number(__ENV.CASE)];
  const tags = { codec: c.codec, payload: c.payload, test: "route" };
  const list = frames[Number(__ENV.CASE)];
  const text = c.frame === "text";
  const payloads = [];
  for (let i = 0; i < list.length; i++)
    payloads.push(text ? encoding.b64decode(list[i], "std", "s") : encoding.b64decode(list[i], "std"));
  const vu = __VU;
  const topic = `k6-${vu}-${__ENV.CASE}-${Date.now()}`;
  const base = `${SERVER}/ws?codec=${encodeURIComponent(c.codec)}&payload=${encodeURIComponent(c.payload)}&topic=${topic}`;
  const rooms = [0, 1].map((parity) => c.rooms.filter((_, r) => r % 2 === parity));
  // What each member is still to receive, in order.
  const waiting = [[], []];
  let next = 0;
  let got = 0;
  let joined = 0;
  let finished = false;
  let stopStall = () => {};
  let router;
  const members = [0, 1].map((m) => new WebSocket(`${base}&role=member&id=k6-${vu}-${__ENV.CASE}-m${m}`));
  const finish = () => {
    if (finished) return;
    finished = true;
    stopStall();
    if (got < next) lost.add(next - got, tags);
    for (const ws of [...members, router]) if (ws) ws.close();
  };
  // As an echo connection sends, through the router; each frame is then awaited by the member of its room.
  const send = () => {
    stopStall = sendOnSchedule(
      (n, dueAt) => {
        const i = n % payloads.length;
        waiting[c.roomOf[i] % 2].push({ i, dueAt, sentAt: Date.now() });
        router.send(payloads[i]);
        sent.add(1, tags);
        next = n + 1;
      },
      () => finished,
      finish,
    );
  };
  members.forEach((ws, m) => {
    ws.binaryType = "arraybuffer";
    let ready = false;
    ws.onopen = () => ws.send(JSON.stringify({ join: rooms[m] }));
    ws.onmessage = (e) => {
      const at = Date.now();
      if (!ready) {
        // The server's answer to the join request.
        ready = true;
        check(null, { "member joined its rooms": () => JSON.parse(String(e.data)).joined === rooms[m].length }, tags);
        if (++joined === 2) {
          router = new WebSocket(
            `${base}&role=router&way=forward${config.validate ? "&validate=1" : ""}&id=k6-${vu}-${__ENV.CASE}-r`,
          );
          router.binaryType = "arraybuffer";
          router.onopen = send;
          endsWith(router, finish);
        }
        return;
      }
      const expected = waiting[m].shift();
      const frame = expected && payloads[expected.i];
      const ok = expected !== undefined && (text ? e.data === frame : sameBytes(e.data, frame));
      check(null, { "each frame reaches its room's member, unchanged, in order": () => ok }, tags);
      if (expected === undefined) return;
      arrived(at, expected, tags);
      if (++got === MESSAGES) finish();
    };
    endsWith(ws, finish);
  });
}
