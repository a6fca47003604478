/**
 * Latency histograms in HdrHistogram's form (hdr-histogram-js): values in microseconds, three
 * significant digits, so other tools read them. A case's histogram is saved in the results
 * JSON in HdrHistogram's compressed encoding, and written as a percentile spectrum (`.hgrm`,
 * the text its plotters read). Several clients' samples are pooled into one histogram (the same
 * as adding their histograms); percentiles are never averaged.
 * The JavaScript build is used everywhere (the page included), so results do not depend on
 * whether WebAssembly loaded. The WebAssembly build runs under Bun too, but records no faster
 * and encodes slower (docs/performance-notes.md), and histograms are filled from the samples
 * after the timed runs, so neither build's speed reaches a figure.
 */

import * as hdr from "hdr-histogram-js";

export type Histogram = hdr.Histogram;

/** An empty histogram: microseconds, 3 significant digits, growing as values need. */
function emptyHistogram(): Histogram {
  return hdr.build({
    bitBucketSize: 64,
    numberOfSignificantValueDigits: 3,
    lowestDiscernibleValue: 1,
    autoResize: true,
    useWebAssembly: false,
  });
}

/** A histogram of latencies given in ns (each rounded to the microsecond; at least 1 µs). */
export function latencyHistogram(samplesNs: readonly Float64Array[]): Histogram {
  const h = emptyHistogram();
  for (const samples of samplesNs)
    for (let i = 0; i < samples.length; i++) h.recordValue(Math.max(1, Math.round(samples[i]! / 1000)));
  return h;
}

/** HdrHistogram's compressed encoding, base64: what the JSON keeps. */
export function encodeHistogram(h: Histogram): string {
  return hdr.encodeIntoCompressedBase64(h);
}

export function decodeHistogram(encoded: string): Histogram {
  return hdr.decodeFromCompressedBase64(encoded, 64, false);
}

/** The percentile spectrum as HdrHistogram prints it (`.hgrm`), values in microseconds. */
export function percentileSpectrum(h: Histogram): string {
  return h.outputPercentileDistribution(5, 1);
}
