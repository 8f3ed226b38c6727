/** camelCase / digits to kebab-case: surfaceRaised -> surface-raised, slate500 -> slate-500. */
export function toKebab(name: string): string {
  return name
    .replace(/([a-z])([A-Z])/g, '$1-$2')
    .replace(/([a-zA-Z])(\d)/g, '$1-$2')
    .toLowerCase();
}
