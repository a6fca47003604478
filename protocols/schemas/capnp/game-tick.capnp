# A game-state tick (protocols/shapes.ts "game-tick").
#   match, tick, id: uint32 -> UInt32 (match and tick share the root's one
#     data word, so adding match cost no bytes)
#   state: enum idle/moving/attacking/dead (0-3) -> EntityState (a 16-bit enum)
#   x, y, z, vx, vy, vz: double -> Float64
#   entities: array of Entity -> List(Entity), a list of structs laid out inline
@0xc63f7e9aada7b3b6;

enum EntityState {
  idle @0;
  moving @1;
  attacking @2;
  dead @3;
}

struct Entity {
  id @0 :UInt32;
  state @1 :EntityState;
  x @2 :Float64;
  y @3 :Float64;
  z @4 :Float64;
  vx @5 :Float64;
  vy @6 :Float64;
  vz @7 :Float64;
}

struct GameTick {
  match @0 :UInt32;
  tick @1 :UInt32;
  entities @2 :List(Entity);
}
