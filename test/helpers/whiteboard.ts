/** A user's own messages the inference tests share. */

/** A collaborative whiteboard's messages: cursor moves, strokes of points, chat with emoji. */
export function whiteboard(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < 40; i++) {
    out.push({ t: "cur", u: `user-${i % 7}`, x: 512.25 + i, y: 301.5 - i / 4 });
    if (i % 4 === 0)
      out.push({
        t: "stroke",
        id: 1000 + i,
        u: `user-${i % 7}`,
        color: ["#ff0000", "#00aa00", "#0000ff"][i % 3],
        width: 2 + (i % 3),
        pts: Array.from({ length: 20 + i }, (_, k) => [10.5 + k, 20.25 + k / 2]),
      });
    if (i % 5 === 0)
      out.push({ t: "chat", u: `user-${i % 7}`, text: i % 2 ? `nice 👍 ${i}` : "ok", ...(i % 3 ? { reply: i } : {}) });
  }
  return out;
}
