// Avro schemas (protocols/schemas/avro/*.avsc) are JSON, imported with `with { type: "json" }`.
declare module "*.avsc" {
  const schema: Parameters<typeof import("avsc").Type.forSchema>[0];
  export default schema;
}

// avsc's types-only entry point (its optional entry for browser builds: no IDL, files or RPC), typed
// with the package's own declarations: the same Type and built-in type classes as its main entry.
declare module "avsc/etc/browser/avsc-types.js" {
  const avro: { Type: typeof import("avsc").Type; types: typeof import("avsc").types };
  export default avro;
}
