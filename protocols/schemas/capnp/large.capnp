# The article's large message (protocols/shapes.ts "large").
#   text..text4: string -> Text
#   num: uint32 -> UInt32; num2: int32 -> Int32
#   decimal, decimal2: double -> Float64
@0xab2db9e2dda8832f;

struct Large {
  text @0 :Text;
  text2 @1 :Text;
  text3 @2 :Text;
  text4 @3 :Text;
  num @4 :UInt32;
  decimal @5 :Float64;
  num2 @6 :Int32;
  decimal2 @7 :Float64;
}
