# The article's medium message (protocols/shapes.ts "medium").
#   text, text2: string -> Text
#   num: uint32 -> UInt32
#   decimal: double -> Float64 (never Float32)
@0xb5a2bf72b5c976f4;

struct Medium {
  text @0 :Text;
  text2 @1 :Text;
  num @2 :UInt32;
  decimal @3 :Float64;
}
