/** Keeps only digits, at most `length` of them (a pasted "123-456" or "1 2 3 4 5 6" works). */
export function digitsOf(text: string, length: number): string[] {
  return [...text.replace(/\D/g, '')].slice(0, length);
}

/**
 * Puts typed or pasted digits into the cells starting at `index`. Returns the new cells and the
 * index to focus next (the cell after the last one written, or the last cell).
 */
export function fillCells(
  cells: readonly string[],
  index: number,
  text: string,
): { cells: string[]; focus: number } {
  const digits = digitsOf(text, cells.length - index);
  const next = [...cells];
  digits.forEach((d, i) => {
    next[index + i] = d;
  });
  return { cells: next, focus: Math.min(index + Math.max(digits.length, 1), cells.length - 1) };
}

/** Whole seconds left until `deadline` (ms epoch) at `now`, never negative. */
export function secondsLeft(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}
