// `.proto` files are imported as text (Bun's `with { type: "text" }`).
declare module "*.proto" {
  const source: string;
  export default source;
}
