import type { Rule } from 'eslint';

/** Logical replacement for a physical Tailwind class (variants allowed), or null when fine. */
export function physicalClass(token: string): string | null;
declare const rule: Rule.RuleModule;
export default rule;
