/**
 * A user's own messages (`--messages FILE`) as a user runs them: the bench
 * and the server as real processes, a file written here with what real
 * messages hold (nested objects, arrays, optional fields, a -0, an integer
 * beyond 2^53, non-ASCII text).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { spawnServer } from "../../../bench/cli/processes/server-process.ts";
import type { BenchResults } from "../../../client/harness/results.ts";
import { parseCsv } from "../../helpers/csv.ts";
import { socketUrl } from "../../../protocols/contract.ts";
import { skipBrowserTests } from "../../helpers/browsers.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const tmp = mkdtempSync(path.join(tmpdir(), "bench-messages-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = path.join(tmp, name);
  writeFileSync(file, text);
  return file;
}

/** The CSV's rows as objects keyed by its header. */
function csvRows(file: string): Record<string, string>[] {
  const [head, ...rows] = parseCsv(readFileSync(file, "utf8"));
  return rows.filter((r) => r.length > 1).map((r) => Object.fromEntries(head!.map((k, i) => [k, r[i] ?? ""])));
}

function run(script: string, ...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [script, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 240_000,
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const ORDERS = [
  {
    id: 1,
    customer: { name: "Zoë Ångström", tier: "gold" },
    items: [{ sku: "A-1", qty: 2, price: 9.99 }],
    note: "café ☕ 注文",
    discount: -0,
  },
  { id: 2, customer: { name: "李雷" }, items: [], total: 0 },
  {
    id: 3,
    customer: { name: "Ana", tier: "silver" },
    items: [
      { sku: "B-2", qty: 1, price: 100 },
      { sku: "C-3", qty: 5, price: 0.1 },
    ],
    coupon: null,
    discount: -0,
  },
];
// JSON.stringify writes -0 as 0, and cannot write the big integer: the file is written as text.
const ordersText = JSON.stringify(ORDERS, null, 1)
  .replaceAll('"discount": 0', '"discount": -0')
  .replace('"total": 0', '"total": 0, "trace": 12345678901234567890');

describe("bad messages files: one line naming the file and the fault, exit 2, nothing run", () => {
  const huge = `[{"blob": "${"x".repeat(1024 * 1024 + 10)}"}]`;
  it.each([
    [
      "not JSON",
      "bad.json",
      "[{id: 1}]",
      /^bench: --messages .*bad\.json: not JSON at line 1, column 3: expected a field name in double quotes, found 'i'\n$/,
    ],
    [
      "empty",
      "empty.json",
      "\n",
      /^bench: --messages .*empty\.json: no messages; expected a JSON array of objects, or JSON Lines with one object per line\n$/,
    ],
    [
      "a line that is not JSON",
      "lines.jsonl",
      '{"a": 1}\n{"a": \n',
      /^bench: --messages .*lines\.jsonl: not JSON at line 2, column 7: expected a value, found the end of the text\n$/,
    ],
    [
      "a message over 1 MiB",
      "huge.json",
      huge,
      /^bench: --messages .*huge\.json: message 1 is [\d,]+ bytes as JSON, over the 1 MiB a WebSocket message may carry here\n$/,
    ],
    [
      "a built-in's name",
      "chat.json",
      "[{}]",
      /^bench: --messages (.*chat\.json): 'chat' is a built-in payload's name; name yours another: --messages my-chat=\1\n$/,
    ],
  ])("%s", (_what, name, text, pattern) => {
    const r = run("bench/cli/bench.ts", "--messages", write(name, text), "--out", path.join(tmp, "never"));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(pattern);
    expect(r.stdout).toBe("");
  });

  it("a file that does not exist, and --allow-lossy without messages", () => {
    const missing = run("bench/cli/bench.ts", "--messages", path.join(tmp, "nope.json"));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^bench: --messages .*nope\.json: cannot read it \(no such file\)\n$/);
    const lossy = run("bench/cli/bench.ts", "--allow-lossy");
    expect(lossy.code).toBe(2);
    expect(lossy.stderr).toBe("bench: --allow-lossy applies to your own messages only; add --messages FILE\n");
  });

  it("a .proto that does not parse, lacks the type, or comes without its type or without messages", () => {
    const messages = write("few.json", '[{"id": 1}]');
    const proto = write("few.proto", 'syntax = "proto3"; package few; message Few { uint32 id = 1; }');
    const cases: [string[], RegExp][] = [
      [
        ["--proto", write("broken.proto", "message {"), "--proto-type", "X"],
        /^bench: --proto .*broken\.proto: does not parse \(.*\)\n$/,
      ],
      [
        ["--proto", proto, "--proto-type", "few.Other"],
        /^bench: --proto .*few\.proto: has no message type 'few\.Other'; its message types: few\.Few\n$/,
      ],
      [["--proto", proto], /^bench: --proto FILE and --proto-type NAME go together \(got only --proto\)\n$/],
    ];
    for (const [args, pattern] of cases) {
      const r = run("bench/cli/bench.ts", "--messages", messages, ...args, "--out", path.join(tmp, "never"));
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(pattern);
    }
    const alone = run("bench/cli/bench.ts", "--proto", proto, "--proto-type", "few.Few");
    expect(alone.stderr).toBe("bench: --proto gives the Protobuf type of your own messages; add --messages FILE\n");
  });

  it("the server refuses a bad file the same way", () => {
    const r = run("server.ts", "--messages", write("bad2.json", "[1]"));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`server: --messages ${path.join(tmp, "bad2.json")}: message 1 is a number, not an object\n`);
  });
});

describe("bun run bench --messages FILE", () => {
  const file = write("orders.json", ordersText);

  it("names what each codec changes, leaves the lossy ones untimed and the inapplicable ones out, with reasons", () => {
    const out = path.join(tmp, "plain");
    const r = run(
      "bench/cli/bench.ts",
      "--messages",
      file,
      "--modes",
      "codec,stream",
      "--iterations",
      "300",
      "--runs",
      "1",
      "--forks",
      "1",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`== your messages: orders, what each codec gives back\n   3 messages from ${file}\n`);
    expect(r.stdout).toMatch(
      /when read: the integer 12345678901234567890 \(field trace, line \d+, column \d+\) became\s+12345678901234567000/,
    );
    for (const codec of ["json", "json-bytes", "msgpack", "msgpackr"])
      expect(r.stdout).toMatch(
        new RegExp(`^${codec}! +2 of 3 +-0 became 0 at discount: 2 \\(first: message 1\\)$`, "m"),
      );
    // custom-binary's layout, inferred from the three orders, keeps the -0s (float32 carries them) and the key orders.
    expect(r.stdout).toMatch(/^custom-binary +0 of 3 +nothing: every value, key and key order kept$/m);
    // protobuf runs in the .proto written from that layout, where coupon's null and its absence read back alike.
    expect(r.stdout).toMatch(/^protobuf! +1 of 3 +field dropped at coupon: 1 \(first: message 3\)$/m);
    expect(r.stdout).toMatch(/! lossy: changed values of these messages, so not timed/);
    const rows = csvRows(path.join(out, "latest.csv"));
    // custom-binary and the transport baseline ran: every other codec changed the -0.
    expect(rows.map((row) => `${row.mode} ${row.codec}`).sort()).toEqual([
      "codec custom-binary",
      "stream custom-binary",
      "stream raw",
    ]);
    const results = JSON.parse(readFileSync(path.join(out, "latest.json"), "utf8")) as BenchResults;
    expect(results.fidelity?.map((f) => [f.codec, f.lossy]).sort()).toEqual([
      ["custom-binary", false],
      ["json", true],
      ["json-bytes", true],
      ["msgpack", true],
      ["msgpackr", true],
      ["protobuf", true],
    ]);
    expect(results.settings.excluded.map((e) => e.codec).sort()).toEqual([
      "json",
      "json-bytes",
      "msgpack",
      "msgpackr",
      "msgpackr-records",
      "protobuf",
    ]);
  });

  it("with --allow-lossy every mode runs them, verified against each codec's own round trip, lost 0, the lossy ones flagged lossy everywhere", () => {
    const out = path.join(tmp, "lossy");
    const r = run(
      "bench/cli/bench.ts",
      "--messages",
      file,
      "--modes",
      "all",
      "--iterations",
      "300",
      "--runs",
      "1",
      "--forks",
      "1",
      "--allow-lossy",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    const rows = csvRows(path.join(out, "latest.csv"));
    expect(new Set(rows.map((row) => row.mode))).toEqual(
      new Set(["codec", "roundtrip", "stream", "fanout", "latency", "cold", "evolve"]),
    );
    // Evolve mode's rows are checks, not timed cases: each lossy codec is held to its own round trip there too.
    const evolved = rows.filter((row) => row.mode === "evolve");
    expect(
      evolved
        .filter((row) => row.change === "field-added" && row.direction === "old-reader")
        .map((row) => `${row.codec} ${row.outcome}`),
    ).toContain("json exact");
    for (const row of rows.filter((x) => x.mode !== "evolve")) {
      expect(row.payload).toBe("orders");
      expect(row.verified, `${row.mode} ${row.codec}: ${row.error}`).toBe("true");
      if (row.mode !== "codec" && row.mode !== "cold") expect(row.lost).toBe("0");
      // custom-binary's inferred layout keeps the -0s: it ran, and is not lossy.
      expect(row.flags!.split(" ").includes("lossy")).toBe(row.codec !== "raw" && row.codec !== "custom-binary");
    }
    expect(
      rows
        .filter((row) => row.mode === "codec")
        .map((row) => row.codec)
        .sort(),
    ).toEqual(["custom-binary", "json", "json-bytes", "msgpack", "msgpackr", "protobuf"]);
    expect(r.stdout).toMatch(/^json! +\d+ /m);
    expect(r.stdout).toMatch(/timed anyway \(--allow-lossy\)/);
  });

  it("--proto FILE --proto-type NAME adds protobuf, whose changes (proto3 drops an empty list and a field it has no number for) are named", () => {
    const proto = write(
      "orders.proto",
      [
        'syntax = "proto3";',
        "package shop;",
        "message Item { string sku = 1; uint32 qty = 2; double price = 3; }",
        "message Customer { string name = 1; optional string tier = 2; }",
        "message Order { uint32 id = 1; Customer customer = 2; repeated Item items = 3; optional string note = 4; optional double discount = 5; optional double total = 6; optional uint64 trace = 7; }",
      ].join("\n"),
    );
    const out = path.join(tmp, "proto");
    const r = run(
      "bench/cli/bench.ts",
      "--messages",
      file,
      "--proto",
      proto,
      "--proto-type",
      "shop.Order",
      "--codecs",
      "json,protobuf",
      "--modes",
      "codec,roundtrip",
      "--iterations",
      "200",
      "--runs",
      "1",
      "--forks",
      "2",
      "--allow-lossy",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^protobuf! +2 of 3 +field dropped at items: 1 \(first: message 2\); field dropped at coupon:\s+1 \(first: message 3\)$/m,
    );
    const rows = csvRows(path.join(out, "latest.csv"));
    expect(rows.map((row) => `${row.mode} ${row.codec} ${row.verified}`).sort()).toEqual([
      "codec json true",
      "codec protobuf true",
      "roundtrip json true",
      "roundtrip protobuf true",
    ]);
  });

  it("--messages NAME=FILE names the payload: a file called chat.json runs as the user's chat, in codec mode and through the server", () => {
    const chat = write(
      "chat.json",
      JSON.stringify([
        { room: "general", text: "héllo 👋", reactions: [{ emoji: "🎉", by: ["ana"] }] },
        { room: "random", text: "hi", edited: true },
      ]),
    );
    const out = path.join(tmp, "named");
    const r = run(
      "bench/cli/bench.ts",
      "--quick",
      "--modes",
      "codec,roundtrip",
      "--codecs",
      "json,msgpackr",
      "--messages",
      `team-chat=${chat}`,
      "--no-pin",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^team-chat +client: \S+ fastest /m);
    const rows = csvRows(path.join(out, "latest.csv"));
    expect(rows.map((row) => `${row.mode} ${row.payload} ${row.codec} ${row.verified}`).sort()).toEqual([
      "codec team-chat json true",
      "codec team-chat msgpackr true",
      "roundtrip team-chat json true",
      "roundtrip team-chat msgpackr true",
    ]);
    // A name given is checked as a file's is.
    const bad = run("bench/cli/bench.ts", "--messages", `small=${chat}`);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      `bench: --messages small=${chat}: 'small' is a built-in payload's name; name yours another: --messages my-small=${chat}\n`,
    );
  });

  it("bun run server --messages FILE accepts the payload, as a --url run needs, and echoes its messages", async () => {
    // Tests the server's --messages flag itself, so it starts `bun server.ts` with it directly.
    const server = await spawnServer(["--messages", file]);
    try {
      const info = (await (await fetch(`${server.url}/info`)).json()) as { payloads: string[] };
      expect(info.payloads).toContain("orders");
      const ws = new WebSocket(socketUrl(server.url, "json", "orders", "user-files-test"));
      const reply = await new Promise<string>((resolve, reject) => {
        ws.onopen = () => ws.send(JSON.stringify(ORDERS[0]));
        ws.onmessage = (ev) => resolve(ev.data as string);
        ws.onclose = (ev) => reject(new Error(`closed ${ev.code} ${ev.reason}`));
      });
      ws.close();
      expect(JSON.parse(reply)).toEqual({ ...ORDERS[0], discount: 0 });
      const refused = await fetch(socketUrl(server.url, "json", "others", "x").replace(/^ws/, "http"));
      expect(await refused.text()).toMatch(
        /^unknown payload 'others'; valid payloads: small, .*, orders \(start the server with --messages FILE for your own\)/,
      );
    } finally {
      await server.stop();
    }
  });
});

describe("a user's own payloads and codec: the verdict, the marks and the tables speak of what ran", () => {
  // Position updates as JSON Lines, one of 300 holding a -0; a chat log; a fixed-layout codec for the positions.
  const moves = write(
    "moves.jsonl",
    Array.from({ length: 300 }, (_, i) =>
      i === 150 ? '{"id":151,"x":-0,"y":2.5}' : JSON.stringify({ id: i + 1, x: i * 0.5 + 0.25, y: -i - 0.5 }),
    ).join("\n") + "\n",
  );
  const chat = write(
    "chat.json",
    JSON.stringify(
      Array.from({ length: 40 }, (_, i) => ({
        room: "general",
        text: `héllo 👋 ${i}`,
        ...(i % 3 === 0 ? { reactions: [{ emoji: "🎉", by: ["cy"] }] } : {}),
      })),
    ),
  );
  const codec = write(
    "moves-view.ts",
    [
      "export default {",
      '  name: "moves-view",',
      '  description: "id u32, x and y float64 at fixed offsets (DataView)",',
      '  frame: "binary" as const,',
      "  standard: false,",
      '  library: "",',
      '  family: "schema" as const,',
      "  forPayload: () => ({",
      "    encode(m: any): Uint8Array {",
      "      const b = new Uint8Array(20);",
      "      const v = new DataView(b.buffer);",
      "      v.setUint32(0, m.id, true);",
      "      v.setFloat64(4, m.x, true);",
      "      v.setFloat64(12, m.y, true);",
      "      return b;",
      "    },",
      "    decode(d: any): object {",
      "      const v = new DataView(d.buffer, d.byteOffset, d.byteLength);",
      "      return { id: v.getUint32(0, true), x: v.getFloat64(4, true), y: v.getFloat64(12, true) };",
      "    },",
      "  }),",
      "};",
      "",
    ].join("\n"),
  );
  const verdictOf = (stdout: string): string[] => {
    const from = stdout.split("\n").findIndex((l) => l.startsWith("Verdict from this run"));
    const lines = stdout.split("\n").slice(from);
    return lines.slice(
      0,
      lines.findIndex((l) => l === ""),
    );
  };

  it("every payload has a verdict line, one not timed says why and what to do; no raw-only table; only codecs that ran are named", () => {
    const out = path.join(tmp, "mine-lossy");
    const r = run(
      "bench/cli/bench.ts",
      "--quick",
      "--modes",
      "codec,stream",
      "--codecs",
      "json,msgpackr,raw",
      "--messages",
      moves,
      "--messages",
      `my-chat=${chat}`,
      "--no-pin",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    const verdict = verdictOf(r.stdout).join("\n");
    expect(verdict).toMatch(
      /^moves +not timed: json, msgpackr: -0 became 0 at x \(1 of 300 messages\); --allow-lossy times them,\s+--equal\s+negative-zero\s+treats\s+them\s+as\s+equal$/m,
    );
    expect(verdict).toMatch(/^my-chat +client: \S+ fastest /m);
    // Only the codecs of this run, on these payloads.
    expect(verdict).not.toMatch(/custom-binary|protobuf|msgpackr-records/);
    // Stream mode ran raw on moves and no codec: one line, not a table of raw alone.
    expect(r.stdout).toContain(
      "moves: no codec was timed on these messages (the verdict says why); raw's row left out",
    );
    expect(r.stdout).not.toMatch(/msgpackr records/);
    // The fidelity table names where: the field and the first message.
    expect(r.stdout).toMatch(/^json! +1 of 300 +-0 became 0 at x: 1 \(first: message 151\)$/m);
  });

  it("built-in and own payloads together: each line names the codecs that ran on its payload, and why the others did not", () => {
    // A -0 that json and msgpackr lose, and a place holding a number and a string, which no custom-binary layout carries.
    const mixed = write("mixed.json", '[{"id":1,"v":2,"x":-0},{"id":2,"v":"two","x":1}]');
    const r = run(
      "bench/cli/bench.ts",
      "--quick",
      "--modes",
      "codec,stream",
      "--codecs",
      "json,custom-binary,msgpackr",
      "--payloads",
      "small,moves,mixed",
      "--messages",
      moves,
      "--messages",
      mixed,
      "--no-pin",
      "--out",
      path.join(tmp, "mine-mixed"),
    );
    expect(r.code, r.stderr).toBe(0);
    const verdict = verdictOf(r.stdout).join("\n");
    expect(verdict).toMatch(/^small +client: \S+ fastest /m);
    // custom-binary's inferred layout carries moves' -0 (its x is a float32): the one codec timed there.
    expect(verdict).toMatch(/^moves +client: custom-binary fastest/m);
    expect(verdict).toMatch(
      /^mixed +not timed: json, msgpackr: -0 became 0 at x \(1 of 2 messages\); custom-binary:\s+no\s+layout\s+carries\s+these\s+messages:\s+v:\s+holds\s+a\s+number/m,
    );
    // custom-binary's figures against json's are of small alone, the payload it ran on.
    expect(verdict).toMatch(/^custom-binary vs json: [\d.]+x time, [\d.]+x bytes \(small\)$/m);
  });

  it.skipIf(skipBrowserTests("user-files.test.ts"))(
    "in the page (Chromium), the same: a verdict line for each payload, naming only codecs that ran there",
    () => {
      const r = run(
        "bench/cli/bench.ts",
        "--quick",
        "--client",
        "chromium",
        "--modes",
        "codec,roundtrip",
        "--codecs",
        "json,msgpackr",
        "--messages",
        moves,
        "--messages",
        `my-chat=${chat}`,
        "--out",
        path.join(tmp, "mine-page"),
      );
      expect(r.code, r.stderr).toBe(0);
      const verdict = verdictOf(r.stdout).join("\n");
      expect(verdict).toMatch(/^moves +not timed: json, msgpackr: -0 became 0 at x \(1 of 300 messages\)/m);
      expect(verdict).toMatch(/^my-chat +client: (json|msgpackr) fastest/m);
      expect(verdict).not.toMatch(/custom-binary|protobuf|msgpackr-records/);
    },
  );

  it("--equal negative-zero times them, against each codec's own round trip, and the results record it; a non-standard codec of the user's is the one the * note names", () => {
    const out = path.join(tmp, "mine-equal");
    const r = run(
      "bench/cli/bench.ts",
      "--quick",
      "--modes",
      "codec",
      "--codecs",
      "json,msgpackr,moves-view",
      "--codec-module",
      codec,
      "--messages",
      moves,
      "--equal",
      "negative-zero",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^json +1 of 300 +-0 became 0 at x: 1 \(first: message 151\), equal by --equal$/m);
    expect(verdictOf(r.stdout).join("\n")).toMatch(/^moves +client: \S+ fastest /m);
    expect(r.stdout).toContain(
      "* non-standard: moves-view writes a format that only the same library (or code) reads.",
    );
    const results = JSON.parse(readFileSync(path.join(out, "latest.json"), "utf8")) as BenchResults;
    expect(results.settings.equal).toEqual(["negative-zero"]);
    expect(
      results.cases
        .map((c) => `${c.codec} ${c.verified} ${c.flags.includes("lossy")} ${c.flags.includes("declared-equal")}`)
        .sort(),
    ).toEqual(["json true false true", "moves-view true false false", "msgpackr true false true"]);
    // The report explains the mark of the codec that carries it, and nothing of msgpackr records.
    const report = readFileSync(path.join(out, "report.html"), "utf8");
    expect(report).toContain("* non-standard: moves-view writes a format");
    expect(report).not.toContain("msgpackr records");
    // A value --equal cannot declare away: without messages, or a kind it does not know.
    expect(run("bench/cli/bench.ts", "--equal", "negative-zero").stderr).toBe(
      "bench: --equal applies to your own messages only; add --messages FILE\n",
    );
    expect(run("bench/cli/bench.ts", "--messages", moves, "--equal", "negative-zeros").stderr).toMatch(
      /^bench: --equal: unknown value 'negative-zeros'; did you mean negative-zero\? valid values: negative-zero, key-order, undefined\n$/,
    );
  });
});

describe("bun run bench --codec-module FILE", () => {
  const example = path.join(ROOT, "docs/codecs/cbor-x.ts");

  it("the shipped cbor-x example runs in every mode, on the article's messages and the sets, verified, lost 0", () => {
    const out = path.join(tmp, "cbor");
    const r = run(
      "bench/cli/bench.ts",
      "--codec-module",
      example,
      "--codecs",
      "json,cbor-x",
      "--payloads",
      "small,chat,game-tick",
      "--modes",
      "all",
      "--iterations",
      "300",
      "--runs",
      "1",
      "--forks",
      "2",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    const all = csvRows(path.join(out, "latest.csv")).filter((row) => row.codec === "cbor-x");
    expect(new Set(all.map((row) => row.mode))).toEqual(
      new Set(["codec", "roundtrip", "stream", "fanout", "latency", "route", "cold", "evolve"]),
    );
    // A schemaless codec of yours runs evolve mode as the built-in ones do: every change, both ways, on every payload.
    const evolved = all.filter((row) => row.mode === "evolve");
    expect(evolved).toHaveLength(new Set(all.map((row) => row.payload)).size * 6 * 2);
    expect(evolved.filter((row) => row.outcome === "not-run")).toEqual([]);
    const rows = all.filter((row) => row.mode !== "evolve");
    expect(rows).toHaveLength(21);
    for (const row of rows) {
      expect(row.verified, `${row.mode} ${row.payload}: ${row.error}`).toBe("true");
      expect(row.library_version).toMatch(/^\d+\.\d+\.\d+/);
      if (row.mode !== "codec" && row.mode !== "cold") expect(row.lost).toBe("0");
    }
    expect(r.stdout).toMatch(/^cbor-x +\d/m);
  });

  it("on your own messages it gets a fidelity line like every codec", () => {
    const out = path.join(tmp, "cbor-mine");
    const r = run(
      "bench/cli/bench.ts",
      "--codec-module",
      example,
      "--messages",
      write("mine.json", ordersText),
      "--codecs",
      "json,cbor-x",
      "--modes",
      "codec",
      "--iterations",
      "100",
      "--runs",
      "1",
      "--forks",
      "1",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^cbor-x!? +\d of 3 /m);
    expect(r.stdout).toContain("== your messages: mine, what each codec gives back");
  });

  it("bad modules and the Node client: one line, exit 2", () => {
    const bad = run("bench/cli/bench.ts", "--codec-module", write("not-a-codec.ts", "export default 42;"));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^bench: --codec-module .*not-a-codec\.ts: its default export is number, not a codec object \(docs\/codecs\.md has the interface\)\n$/,
    );
    const missing = run("bench/cli/bench.ts", "--codec-module", path.join(tmp, "missing.ts"));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^bench: --codec-module .*missing\.ts: cannot import it \(no such file\)\n$/);
    const node = run("bench/cli/bench.ts", "--codec-module", example, "--client", "node");
    expect(node.code).toBe(2);
    expect(node.stderr).toBe(
      "bench: --codec-module runs with --client bun, chromium or firefox; the Node client cannot import a module written for Bun\n",
    );
  });
});
