# A market-data quote (protocols/shapes.ts "market").
#   symbol: string -> Text
#   seq, ts: uint53 -> UInt64 (capnp-es reads them as bigints; the codec converts)
#   bid, bidSize, ask, askSize: double -> Float64
@0x84f770cdac21f1b4;

struct Market {
  symbol @0 :Text;
  seq @1 :UInt64;
  ts @2 :UInt64;
  bid @3 :Float64;
  bidSize @4 :Float64;
  ask @5 :Float64;
  askSize @6 :Float64;
}
