/**
 * The layers of this project, each folder used only by the ones above it
 * (docs/development.md, "Layout"):
 *
 *   custom-binary <- protocols <- server, client (side by side) <- bench, server.ts
 *
 * `npm test` runs these rules (test/layers.test.ts); an import that runs up
 * a layer fails the suite with the rule's name.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "custom-binary-stands-alone",
      comment:
        "custom-binary/ is the hand-written protocol: it declares its own layouts and imports nothing outside itself.",
      severity: "error",
      from: { path: "^custom-binary/" },
      to: { pathNot: "^custom-binary/" },
    },
    {
      name: "messages-import-nothing-else",
      comment:
        "protocols/messages.ts and message-sets.ts are the floor every codec stands on: types, names and example messages only; the sets take their types from the custom-binary layouts that carry them.",
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
      name: "protocols-below-server-and-client",
      comment:
        "protocols/ (the codecs, their catalog and the wire contract) is used by the server, the clients and the bench, never the other way.",
      severity: "error",
      from: { path: "^protocols/" },
      to: { path: "^(server|client|bench)/|^server\\.ts$" },
    },
    {
      name: "server-uses-protocols-only",
      comment:
        "server/ is the server's logic: it speaks the wire contract and runs the codecs; it never measures a client's side, prints a report or reads the command line.",
      severity: "error",
      from: { path: "^server/" },
      to: { path: "^(client|bench)/|^server\\.ts$" },
    },
    {
      name: "client-below-bench",
      comment:
        "client/ measures (codec mode and the socket clients) over the standard WebSocket API; it knows nothing of the server's code, the command line or the report.",
      severity: "error",
      from: { path: "^client/" },
      to: { path: "^(server|bench)/|^server\\.ts$" },
    },
    {
      name: "report-never-measures",
      comment:
        "bench/report/ turns results into text, files and charts: it never reaches for the command line, the page or a measuring loop.",
      severity: "error",
      from: { path: "^bench/report/" },
      to: {
        path: "^bench/(cli|tools|page)/|^client/(socket|page)/|^client/harness/(clock|loops|codec-mode|codec-case|schedule)\\.ts$",
      },
    },
    {
      name: "page-runs-in-the-browser",
      comment:
        "The page's front end (bench/page/) uses the report and the client, never the command line, its processes or the server.",
      severity: "error",
      from: { path: "^bench/page/" },
      to: { path: "^bench/(cli|tools)/|^server/|^server\\.ts$" },
    },
    {
      name: "server-entry-is-not-the-bench",
      comment:
        "server.ts wires Bun.serve from server/, protocols/ and the plan it is given (client/harness); the bench's command line, report, page and tools are not its business (it bundles the page from its path: server/page-bundle.ts). Its flags alone are described as the bench's are, sharing the entries of the flags both take (bench/cli/flags.ts, option-specs.ts).",
      severity: "error",
      from: { path: "^server\\.ts$" },
      to: { path: "^bench/", pathNot: "^bench/cli/(flags|option-specs)\\.ts$" },
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
