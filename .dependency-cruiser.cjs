/**
 * The layers of this project, each used only by the ones above it
 * (README, "Layout"):
 *
 *   custom-binary <- protocols <- bench/harness <- client <- bench/report
 *     <- the front ends: bench/cli, the tools (bench/tools), the page's UI (client/page/app.ts), server.ts
 *
 * `npm test` runs these rules (test/layers.test.ts); an import that runs up
 * a layer fails the suite with the rule's name.
 */
const FRONT_ENDS = "^bench/cli/|^bench/tools/|^server\\.ts$|^client/page/app\\.ts$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "custom-binary-stands-alone",
      comment: "custom-binary/ is the hand-written protocol: it declares its own layouts and imports nothing outside itself.",
      severity: "error",
      from: { path: "^custom-binary/" },
      to: { pathNot: "^custom-binary/" },
    },
    {
      name: "messages-import-nothing-else",
      comment: "protocols/messages.ts and message-sets.ts are the floor every codec stands on: types, names and example messages only; the sets take their types from the custom-binary layouts that carry them.",
      severity: "error",
      from: { path: "^protocols/message(s|-sets)\\.ts$" },
      to: { pathNot: "^protocols/message-sets\\.ts$|^custom-binary/index\\.ts$" },
    },
    {
      name: "messages-load-no-codec",
      comment: "Loading the messages never loads a codec: message-sets.ts imports custom-binary's types only.",
      severity: "error",
      from: { path: "^protocols/message(s|-sets)\\.ts$" },
      to: { path: "^custom-binary/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "protocols-below-bench-and-client",
      comment: "protocols/ (codecs and the server's contract) is used by the harness, the clients and the server, never the other way.",
      severity: "error",
      from: { path: "^protocols/" },
      to: { path: "^bench/|^client/|^server\\.ts$" },
    },
    {
      name: "harness-below-client",
      comment: "bench/harness/ measures; it knows nothing of sockets, reports or the command line.",
      severity: "error",
      from: { path: "^bench/harness/" },
      to: { path: `^client/|^bench/report/|${FRONT_ENDS}` },
    },
    {
      name: "client-below-report",
      comment: "client/ runs cases over the standard WebSocket API; formatting results is the report's job, and the front ends sit above both.",
      severity: "error",
      from: { path: "^client/", pathNot: "^client/page/app\\.ts$" },
      to: { path: `^bench/report/|${FRONT_ENDS}` },
    },
    {
      name: "report-below-front-ends",
      comment: "bench/report/ turns results into text, files and charts; it never measures and never reaches for the command line.",
      severity: "error",
      from: { path: "^bench/report/" },
      to: { path: `${FRONT_ENDS}|^client/|^bench/harness/(clock|loops|codec-mode|codec-case|schedule)\\.ts$` },
    },
    {
      name: "page-ui-is-a-front-end",
      comment: "The page's UI (client/page/app.ts) uses the report and the client, not the command line or the server.",
      severity: "error",
      from: { path: "^client/page/app\\.ts$" },
      to: { path: "^bench/cli/|^server\\.ts$" },
    },
    {
      name: "server-uses-protocols-harness-page-build",
      comment: "server.ts wires Bun.serve: it uses protocols/ (the socket contract and its handlers), the harness clock, the page build, the library versions, the reader of the user's files (as the bench reads them) and the supervisor of its --processes, nothing else.",
      severity: "error",
      from: { path: "^server\\.ts$" },
      to: { path: "^bench/report/|^client/socket/|^client/page/app\\.ts$|^bench/cli/(?!(environment|user-files|processes/cluster)\\.ts$)" },
    },
    {
      name: "no-one-imports-the-server",
      comment: "server.ts is an entry point; the CLI starts it as a process of its own.",
      severity: "error",
      from: {},
      to: { path: "^server\\.ts$" },
    },
    {
      name: "no-circular",
      comment: "A circle of imports has no bottom layer.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|test|results|docs|\\.bench-tmp)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".mjs", ".json"] },
  },
};
