# The article's small message (protocols/shapes.ts "small").
#   text: string -> Text
#   num:  uint32 -> UInt32
@0xaa6d5ec266d94e27;

struct Small {
  text @0 :Text;
  num @1 :UInt32;
}
