import { defineConfig, type Plugin } from "vitest/config";

/**
 * Bun imports `.proto` files as text (`with { type: "text" }`); Vite's module
 * runner does not know that attribute, so this gives it the same meaning.
 */
function protoAsText(): Plugin {
  return {
    name: "proto-as-text",
    transform(code, id) {
      if (!id.endsWith(".proto")) return null;
      return { code: `export default ${JSON.stringify(code)};`, map: null };
    },
  };
}

export default defineConfig({
  plugins: [protoAsText()],
  test: {
    include: ["test/**/*.test.ts"],
    // Server and CLI tests start real processes; keep the 2-core machine calm.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
