import { defineConfig, type Plugin } from "vitest/config";

/**
 * Bun imports `.proto` files as text (`with { type: "text" }`) and Avro's
 * `.avsc` schemas as JSON (`with { type: "json" }`); Vite's module runner
 * knows neither, so this gives them the same meaning.
 */
function schemaFiles(): Plugin {
  return {
    name: "schema-files",
    transform(code, id) {
      if (id.endsWith(".proto")) return { code: `export default ${JSON.stringify(code)};`, map: null };
      if (id.endsWith(".avsc")) return { code: `export default ${code.trim()};`, map: null };
      return null;
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
  plugins: [schemaFiles()],
  test: {
    reporters: ["default", new ClosingLine()],
    include: ["test/**/*.test.ts"],
    // Server and CLI tests start real processes; keep the 2-core machine calm.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
