/**
 * What `import "ws-serialization-bench"` loads outside Bun (Node.js, a bundler's default): one
 * line saying how to run it. The API (compare-api.ts) is TypeScript that runs under Bun, which
 * arrives with the package. The API's names are declared here too, so a static
 * `import { compare } from "ws-serialization-bench"` reaches this line instead of failing on a
 * missing export before any code runs.
 */
export const compare = undefined;
export const SettingError = undefined;

throw new Error(
  "ws-serialization-bench: the API runs under Bun, which arrives with the package: run your script with `npx bun FILE` and your tests with `npx bun test` (the command line, `npx ws-serialization-bench`, works from Node.js too)",
);
