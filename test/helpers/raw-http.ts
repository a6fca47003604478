/**
 * A raw TCP client for the server's tests: writes exactly the bytes given (a request no
 * well-behaved client would send) and reads the answer's status line, headers and body.
 */
import net from "node:net";

export interface RawAnswer {
  status: number;
  headers: string;
  body: string;
}

/** Sends `request` as is; resolves with the answer once its body (Content-Length) has arrived or the socket closed. */
export function rawRequest(port: number, request: string, timeoutMs = 5000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(request));
    let data = "";
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      const end = data.indexOf("\r\n\r\n");
      const head = end < 0 ? data : data.slice(0, end);
      resolve({
        status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0),
        headers: head,
        body: end < 0 ? "" : data.slice(end + 4),
      });
    };
    socket.on("data", (d) => {
      data += d.toString("latin1");
      const end = data.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(data.slice(0, end));
      // 101 and 204 have no body; others say how long theirs is.
      if (/^HTTP\/1\.1 (101|204)/.test(data) || (length && data.length - end - 4 >= Number(length[1]))) finish();
    });
    socket.on("close", finish);
    socket.on("error", reject);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms: ${JSON.stringify(data.slice(0, 200))}`));
    }, timeoutMs);
  });
}

/** A WebSocket upgrade request for `target`, with a Host and any extra header lines. */
export function upgradeRequest(target: string, host: string, extra: string[] = []): string {
  return [
    `GET ${target} HTTP/1.1`,
    `Host: ${host}`,
    "Upgrade: websocket",
    "Connection: Upgrade",
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    "Sec-WebSocket-Version: 13",
    ...extra,
    "",
    "",
  ].join("\r\n");
}
