// pbf's compile() (its "./compile" entry, which ships no declarations): read and write functions for
// each message type of a parsed .proto, made with `new Function`.
declare module "pbf/compile" {
  export function compile(proto: unknown): Record<string, unknown>;
}

// protocol-buffers-schema (the .proto parser pbf's own CLI uses), which ships no declarations.
declare module "protocol-buffers-schema" {
  function parse(text: string): unknown;
  export default parse;
}
