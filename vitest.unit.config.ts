import { configDefaults, defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.ts";

/**
 * `npm run test:unit`, the inner loop: every test but those that start processes (a server, the
 * bench, a browser, Redis, Toxiproxy, k6, git or the package's install) or time a whole codec mode,
 * which `npm test` runs too. A test file that does belongs in this list, so the inner loop stays
 * under a minute.
 */
const PROCESS_TESTS = [
  "test/bench/{api,cli,page}/**",
  "test/bench/report/{changes,csv,html,summary}.test.ts",
  "test/bench/tools/{api-types,between-messages,codegen,compat,crosscheck,figures,plain-loop,samples,screenshot}.test.ts",
  "test/bench/tools/figures/sample-staleness.test.ts",
  "test/client/harness/user-files.test.ts",
  "test/client/node-client.test.ts",
  "test/client/socket/{client-connection,modes,open-loop,rounds,route,runner,workers}.test.ts",
  "test/server/{access,cluster,flow,handlers,router,routes,stolen-time,upgrade,warm-up}.test.ts",
  "test/{install,layers,server,vocabulary}.test.ts",
];

export default mergeConfig(base, defineConfig({ test: { exclude: [...configDefaults.exclude, ...PROCESS_TESTS] } }));
