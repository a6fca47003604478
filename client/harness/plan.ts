/**
 * A run's plan: everything the user asked for, resolved once before
 * anything is measured, and never changed afterwards. The CLI builds it
 * from its flags, the page from its form (with the user's files the server
 * serves). Codec mode's processes and the Node client receive its plain
 * part (`PlanSpec`) and rebuild the same plan with `loadPlan`; the client
 * worker threads and the server build the same catalog (`catalogFor`)
 * from the same inputs: the settings' codec modules and the user's .proto
 * and messages.
 *
 * What it resolves:
 * - the codec catalog: the built-in codecs, the user's codec modules, and
 *   the protobuf codec made for the user's own message type (--proto);
 * - the user's payloads: what each codec does to them (the fidelity check)
 *   and which codec and payload pairs are left out, and why;
 * - the settings, with those exclusions.
 */

import type { Codec } from "../../protocols/codec.ts";
import { isBuiltIn } from "../../protocols/messages.ts";
import { codecModeUnits } from "./codec-mode.ts";
import { coldCodecs } from "./cold-mode.ts";
import { MAX_BISECTIONS } from "./knee.ts";
import { CodecCatalog } from "../../protocols/registry.ts";
import { RAW_CODEC_NAME } from "../../protocols/contract.ts";
import { importCodecModules } from "./codec-modules.ts";
import { checkFidelity, fidelitySummary, type FidelityReport } from "./fidelity.ts";
import { codecsWithoutServer, type Excluded, type Mode, type Settings } from "./settings.ts";
import { SettingError } from "./harness-errors.ts";
import { userLayoutOf, userMessagesOf } from "./user-messages.ts";

export interface Plan {
  /** What to run, with the exclusions filled in. */
  readonly settings: Readonly<Settings>;
  /** Every codec the run may name. */
  readonly catalog: CodecCatalog;
  /** The codecs codec mode runs: the catalog's among the settings' codecs, in table order (raw is a socket mode's only). */
  readonly codecModeCodecs: readonly Codec[];
  /** What each codec does to the user's messages (empty without --messages). */
  readonly fidelity: readonly FidelityReport[];
  /** Processes codec mode's runs are spread over (1: the process that carries the plan out). */
  readonly forks: number;
  /** Each mode's work per payload, in the units its progress events count (what the estimate of time left reads). */
  readonly work: readonly ModeWork[];
}

/** One mode's work per payload, in progress units: the socket modes count codecs x runs (x rates); codec mode times through the messages. */
export interface ModeWork {
  mode: Mode;
  units: number;
}

/** A plan's plain data, as it crosses to another process (JSON). */
export interface PlanSpec {
  settings: Settings;
  fidelity: FidelityReport[];
}

/** The catalog for `settings`, given the codecs of its codec modules (in their order); a name taken twice is a SettingError. */
export function catalogFor(
  settings: Pick<Settings, "userProto" | "userMessages">,
  moduleCodecs: readonly Codec[],
): CodecCatalog {
  const p = settings.userProto;
  const userProto = p
    ? { payloads: settings.userMessages.map((f) => f.name), text: p.text, typeName: p.type }
    : undefined;
  const userLayouts = new Map(settings.userMessages.map((f) => [f.name, userLayoutOf(settings.userMessages, f.name)]));
  try {
    return CodecCatalog.of(moduleCodecs, userProto, [RAW_CODEC_NAME], userLayouts);
  } catch (e) {
    throw new SettingError((e as Error).message);
  }
}

/** The work of every mode: codec mode's planned runs (more rounds for precision come on top); latency mode's at every rate (a sweep: at most every rate and its bisections, an upper bound). */
function workOf(settings: Settings, codecModeCodecs: number): ModeWork[] {
  const codecUnits = codecModeUnits(1, codecModeCodecs, { from: 0, to: settings.runs.codec });
  const steps = (mode: Mode): number =>
    mode === "latency" ? settings.rates.length + (settings.sweep ? MAX_BISECTIONS : 0) : 1;
  return settings.modes.map((mode) => ({
    mode,
    units:
      mode === "codec"
        ? codecUnits
        : mode === "cold"
          ? coldCodecs(settings).length * settings.runs.cold
          : mode === "evolve"
            ? codecsWithoutServer(settings).length
            : settings.codecs.length * settings.runs[mode] * steps(mode),
  }));
}

function freeze(settings: Settings, catalog: CodecCatalog, fidelity: readonly FidelityReport[], forks: number): Plan {
  const codecModeCodecs = Object.freeze(catalog.pick(settings.codecs));
  const work = Object.freeze(workOf(settings, codecModeCodecs.length));
  return Object.freeze({
    settings: Object.freeze(settings),
    catalog,
    codecModeCodecs,
    fidelity: Object.freeze([...fidelity]),
    forks,
    work,
  });
}

/** Checks every codec on every user payload: what each does to the messages, and which pairs to leave out. */
function checkUserPayloads(
  settings: Settings,
  catalog: CodecCatalog,
): { fidelity: FidelityReport[]; excluded: Excluded[] } {
  const fidelity: FidelityReport[] = [];
  const excluded: Excluded[] = [];
  for (const payload of settings.payloads.filter((p) => !isBuiltIn(p))) {
    const { messages } = userMessagesOf(settings.userMessages, payload);
    for (const codec of catalog.pick(settings.codecs)) {
      const notApplicable = codec.notApplicable?.(payload);
      if (notApplicable !== undefined) {
        excluded.push({ codec: codec.name, payload, why: `not applicable: ${notApplicable}` });
        continue;
      }
      const fidelityReport = checkFidelity(
        codec.name,
        payload,
        codec.forPayload(payload),
        messages,
        settings.equal ?? [],
      );
      fidelity.push(fidelityReport);
      if (fidelityReport.error !== undefined)
        excluded.push({ codec: codec.name, payload, why: fidelitySummary(fidelityReport) });
      else if (fidelityReport.lossy && !settings.allowLossy)
        excluded.push({
          codec: codec.name,
          payload,
          why: `lossy, not timed (--allow-lossy times it): ${fidelitySummary(fidelityReport)}`,
        });
    }
  }
  return { fidelity, excluded };
}

/**
 * Resolves a plan from settings as a front end parsed them and the codecs
 * of the codec modules they name: the catalog, the fidelity of every
 * codec on the user's messages, the exclusions.
 */
export function makePlan(settings: Settings, moduleCodecs: readonly Codec[] = [], forks = 1): Plan {
  const catalog = catalogFor(settings, moduleCodecs);
  const { fidelity, excluded } = checkUserPayloads(settings, catalog);
  return freeze({ ...settings, excluded }, catalog, fidelity, forks);
}

/** The plan's plain data, for another process. */
export function planSpec(plan: Plan): PlanSpec {
  return { settings: plan.settings as Settings, fidelity: [...plan.fidelity] };
}

/**
 * The same plan in another process: imports the codec modules the settings
 * name and rebuilds the catalog; the exclusions and fidelity come as they
 * were resolved. `modules`: the codec modules to import and where from (a
 * page's worker: the URLs the server serves them at), by default the
 * settings' files.
 */
export async function loadPlan(
  spec: PlanSpec,
  modules: readonly { file: string; specifier: string }[] = (spec.settings.codecModules ?? []).map((m) => ({
    file: m.file,
    specifier: m.file,
  })),
): Promise<Plan> {
  const moduleCodecs = await importCodecModules(
    modules.map((m) => m.file),
    (_, i) => modules[i]!.specifier,
  );
  return freeze(spec.settings, catalogFor(spec.settings, moduleCodecs), spec.fidelity, 1);
}
