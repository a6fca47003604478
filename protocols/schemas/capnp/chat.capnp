# A chat message (protocols/shapes.ts "chat").
#   id, room, count: uint32 -> UInt32
#   user, text, emoji: string -> Text
#   sentAt: uint53 -> UInt64 (capnp-es reads it as a bigint; the codec converts)
#   reactions: array of Reaction -> List(Reaction)
#   replyTo: optional uint32, editedAt: optional uint53 -> each a group holding
#     a union of `none :Void` (absent, the default) and `value`: Cap'n Proto has
#     no optional scalars, and the union says "absent" in its discriminant,
#     so a present 0 stays distinct from an absent field.
@0xc4a3ef22ef320158;

struct Reaction {
  emoji @0 :Text;
  count @1 :UInt32;
}

struct Chat {
  id @0 :UInt32;
  room @1 :UInt32;
  user @2 :Text;
  text @3 :Text;
  sentAt @4 :UInt64;
  reactions @5 :List(Reaction);
  replyTo :union {
    none @6 :Void;
    value @7 :UInt32;
  }
  editedAt :union {
    none @8 :Void;
    value @9 :UInt64;
  }
}
