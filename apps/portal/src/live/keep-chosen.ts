/**
 * The vehicles a live view shows: those of the open status tab, plus the chosen one when its status has
 * left the tab since it was chosen (a live bus that parks is no longer "Live"). Its row and its card
 * stay until the user closes the card or chooses another vehicle, instead of vanishing under the
 * user's eyes on the next live update. Returns `visible` itself when nothing is added, so memoised
 * consumers do not redo their work.
 */
export function keepChosen<T extends { uuid: string }>(
  visible: readonly T[],
  all: readonly T[],
  chosen: string | null,
): readonly T[] {
  if (!chosen || visible.some((v) => v.uuid === chosen)) return visible;
  const pinned = all.find((v) => v.uuid === chosen);
  return pinned ? [...visible, pinned] : visible;
}
