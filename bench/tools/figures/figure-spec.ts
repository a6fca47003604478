/**
 * What one document's generated spans say: each span's name and the function that writes it from
 * the committed samples. A figure that only holds while the samples show something (a word chosen
 * by the data, a claim the sentence makes) throws `FigureError` when they stop showing it, so a
 * remake that changes the story fails by name instead of leaving the old words in place.
 */

/** A document (README.md or docs/NAME.md, from the project's root) and its spans' figures. */
export interface PageFigures {
  page: string;
  figures: Record<string, () => string>;
}

/** A figure the samples no longer support as the prose states it: the sentence needs rewriting. */
class FigureError extends Error {
  override name = "FigureError";
}

/** `text` when `holds`, else a FigureError saying what the samples no longer show. */
export function claim(holds: boolean, text: string, what: string): string {
  if (!holds) throw new FigureError(`the samples no longer show ${what}: rewrite the sentence`);
  return text;
}
