/** Where the project's files are, whatever directory the command was started from. */

import path from "node:path";
import { fileURLToPath } from "node:url";

/** The project root (the folder holding package.json). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
