/**
 * POST /warm-up: a codec's decode and encode, run in the server's own process
 * over frames a client sends, before the client times a case. A case's server
 * must have run the codec often enough for the engine's optimising compilers;
 * sending those messages over the socket cost the client (its WebSocket sends
 * one message per system call) several times what the server's calls cost.
 * The client still sends a short warm-up over the socket, which compiles the
 * server's message handler; the codec's calls are compiled here.
 */

import { errorText } from "../protocols/codec.ts";
import { originAllowed } from "./access.ts";
import type { SocketServer } from "./context.ts";
import {
  frameOf,
  RAW_CODEC_NAME,
  unpackFrames,
  WARM_UP_MAX_BYTES,
  WARM_UP_MAX_MESSAGES,
} from "../protocols/contract.ts";
import { refuse, text } from "./http.ts";
import { codecAndPayload } from "./upgrade.ts";

/** What a warm-up did: the frames it was sent, the decode + encode calls it ran over them, how long they took. */
export interface WarmUpAnswer {
  codec: string;
  payload: string;
  frames: number;
  messages: number;
  ms: number;
}

/**
 * POST /warm-up?codec=NAME&payload=NAME&messages=N, the body the frames (contract.ts, packFrames):
 * N decodes, each followed by an encode of what it gave, cycling through the frames; charged to no
 * connection. raw runs nothing (it decodes nothing). A frame the codec cannot decode is a 400 that
 * says why; a page from another origin may not ask.
 */
export async function warmUp(s: SocketServer, req: Request, url: URL): Promise<Response> {
  if (!originAllowed(req, s.ctx.allowOrigins))
    return refuse(s, "foreignOrigin", 403, `origin ${req.headers.get("origin")} may not ask this server to warm up`);
  const named = codecAndPayload(s, url);
  if (named instanceof Response) return named;
  const { codec, payload } = named;
  const raw = url.searchParams.get("messages") ?? "";
  const messages = /^\d{1,7}$/.test(raw) ? Number(raw) : NaN;
  if (!(messages >= 1 && messages <= WARM_UP_MAX_MESSAGES))
    return text(400, `messages must be an integer from 1 to ${WARM_UP_MAX_MESSAGES}, got '${raw}'`);
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > WARM_UP_MAX_BYTES)
    return text(413, `a warm-up body may be ${WARM_UP_MAX_BYTES} bytes at most, got ${declared}`);
  const body = new Uint8Array(await req.arrayBuffer());
  if (body.byteLength > WARM_UP_MAX_BYTES)
    return text(413, `a warm-up body may be ${WARM_UP_MAX_BYTES} bytes at most, got ${body.byteLength}`);
  const frames = unpackFrames(body, frameOf(codec, s.ctx.codecs));
  if (frames === undefined || frames.length === 0)
    return text(400, "the body must hold one frame or more, each a 4-byte little-endian length and its bytes");
  if (codec === RAW_CODEC_NAME)
    return Response.json({ codec, payload, frames: frames.length, messages: 0, ms: 0 } satisfies WarmUpAnswer);
  const pc = s.ctx.codecs.get(codec)!.forPayload(payload);
  let failed: string | undefined;
  let ms = 0;
  s.cpu.unowned(() => {
    const t0 = s.ctx.now();
    try {
      for (let i = 0; i < messages; i++) pc.encode(pc.decode(frames[i % frames.length]!));
    } catch (e) {
      failed = `${codec}: ${errorText(e)}`;
    }
    ms = s.ctx.now() - t0;
  });
  if (failed !== undefined) return text(400, failed);
  return Response.json({ codec, payload, frames: frames.length, messages, ms } satisfies WarmUpAnswer);
}
