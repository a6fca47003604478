/**
 * The benchmark server for tests, always on port 0 (a free port), started and stopped one way:
 *
 *   serverForFile(options?)        one server for the file (or the describe block it is called in)
 *   serverForEachTest(options?)    a fresh server for each test of the file (or describe block)
 *   withServer(options, fn)        a server of its own for one call of fn, stopped after it
 *
 * Each gives a TestServer: its url and port, and health() (its GET /health). The server runs in
 * this process (startServer), unless serverForFile is given { ownProcess: true }: then it is
 * `bun server.ts` as its own process (spawnServer, as the bench starts it), so what /health says
 * about its memory is the server's alone, and a flood from the test does not share its event loop.
 *
 * Tests of startServer, spawnServer or the server's command line themselves call those directly.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { spawnServer } from "../../bench/cli/processes/server-process.ts";
import type { Refusal } from "../../server/context.ts";
import { startServer, type ServerOptions } from "../../server.ts";

/** What GET /health answers (server/requests.ts). */
export interface ServerHealth {
  ok: boolean;
  connections: number;
  rssBytes: number;
  heapUsedBytes: number;
  refused: Record<Refusal, number>;
}

/** GET /health of the server at `serverUrl`. */
async function serverHealth(serverUrl: string): Promise<ServerHealth> {
  return (await (await fetch(`${serverUrl}/health`)).json()) as ServerHealth;
}

/** A running server, as tests see it. */
export interface TestServer {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  /** Its GET /health. */
  health(): Promise<ServerHealth>;
}

/** startServer's options but the port: a test server always takes a free one. */
type TestServerOptions = Partial<Omit<ServerOptions, "port">>;

interface Running extends TestServer {
  stop(): Promise<void>;
}

function running(url: string, port: number, stop: () => Promise<void>): Running {
  return { url, port, health: () => serverHealth(url), stop };
}

/** A server in this process on a free port with `options`. */
async function startInProcess(options: TestServerOptions): Promise<Running> {
  const server = await startServer({ ...options, port: 0 });
  return running(server.url, server.port, () => server.stop());
}

/** `bun server.ts --port 0` as its own process, once it has printed its ready line. */
async function startOwnProcess(): Promise<Running> {
  const server = await spawnServer();
  return running(server.url, Number(new URL(server.url).port), () => server.stop());
}

/** A TestServer that reads through to whichever server `current()` holds, and says so when none is running. */
function heldServer(current: () => Running | undefined): TestServer {
  const get = (): Running => {
    const server = current();
    if (!server)
      throw new Error(
        "the test server is not running: use it inside a test or a hook, not while the file is collected",
      );
    return server;
  };
  return {
    get url() {
      return get().url;
    },
    get port() {
      return get().port;
    },
    health: () => get().health(),
  };
}

/**
 * One server for the whole file, or for the describe block this is called in: started before its
 * first test, stopped after its last. `{ ownProcess: true }` runs it as its own process (no other options).
 */
export function serverForFile(options: TestServerOptions | { ownProcess: true } = {}): TestServer {
  let server: Running | undefined;
  beforeAll(async () => {
    server = "ownProcess" in options ? await startOwnProcess() : await startInProcess(options);
  });
  afterAll(async () => {
    await server?.stop();
    server = undefined;
  });
  return heldServer(() => server);
}

/** A fresh server in this process for each test of the file (or describe block), stopped after the test. */
export function serverForEachTest(options: TestServerOptions = {}): TestServer {
  let server: Running | undefined;
  beforeEach(async () => {
    server = await startInProcess(options);
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });
  return heldServer(() => server);
}

/** Calls `fn` with a server in this process started with `options`; stops it once fn has settled, whether it resolved or threw. */
export async function withServer<T>(options: TestServerOptions, fn: (server: TestServer) => Promise<T>): Promise<T> {
  const server = await startInProcess(options);
  try {
    return await fn(server);
  } finally {
    await server.stop();
  }
}
