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

/** Ends the run with one plain line, "N passed, N failed, N skipped", that any CI log reader understands. */
class ClosingLine {
  onTestRunEnd(modules: ReadonlyArray<{ children: { allTests(): Iterable<{ result(): { state: string } }> } }>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}

export default defineConfig({
  plugins: [protoAsText()],
  test: {
    reporters: ["default", new ClosingLine()],
    include: ["test/**/*.test.ts"],
    // Server and CLI tests start real processes; keep the 2-core machine calm.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
