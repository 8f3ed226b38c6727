/* eslint-disable fleet/no-physical-direction -- this file lists the physical classes the rule must reject */
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, it } from 'vitest';
// The rule lives at the repo root (eslint-rules/) and guards both packages/ui and apps/portal.
import rule, { physicalClass } from '../../../../eslint-rules/no-physical-direction.js';
import { expect } from 'vitest';

(RuleTester as unknown as { afterAll: typeof afterAll }).afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({
  languageOptions: {
    parser: tseslint.parser,
    parserOptions: { ecmaFeatures: { jsx: true } },
  },
});

describe('physicalClass', () => {
  it.each([
    ['ml-2', 'ms-2'],
    ['-mr-1', '-me-1'],
    ['pl-4', 'ps-4'],
    ['md:pr-[3px]', 'pe-[3px]'],
    ['left-0', 'start-0'],
    ['-right-2', '-end-2'],
    ['text-left', 'text-start'],
    ['text-right', 'text-end'],
    ['float-left', 'float-start'],
    ['rounded-l-md', 'rounded-s-md'],
    ['rounded-r', 'rounded-e'],
    ['rounded-tl-lg', 'rounded-ss-lg'],
    ['border-l', 'border-s'],
    ['border-r-2', 'border-e-2'],
    ['hover:!ml-auto', 'ms-auto'],
  ])('%s -> %s', (token, fix) => {
    expect(physicalClass(token)).toBe(fix);
  });
  it.each([
    'ms-2',
    'pe-4',
    'start-0',
    'text-start',
    'rounded-s-md',
    'border-e',
    'rtl:left-0',
    'ltr:ml-2',
    'left',
    'mt-2',
    'px-2',
    'inset-x-0',
    'bottom-left',
  ])('allows %s', (token) => {
    expect(physicalClass(token)).toBeNull();
  });
});

tester.run('no-physical-direction', rule, {
  valid: [
    { code: 'const a = <div className="ms-2 pe-4 text-start rounded-s-md border-e start-0" />;' },
    { code: "const a = cn('ps-2', isOpen && 'me-1');" },
    { code: 'const a = <div className="rtl:-scale-x-100 ltr:left-0 rtl:right-0" />;' },
    { code: "const a = <div style={{ marginInlineStart: 4, insetInlineEnd: 0, textAlign: 'start' }} />;" },
    { code: "style({ paddingInlineStart: vars.space['2'] });" },
    // Not style objects: a tree node or map options may have left/right keys.
    { code: 'const node = { left: null, right: null };' },
    { code: "const opts = { position: 'bottomright' };" },
    { code: "const msg = 'Turn left at the roundabout';" },
  ],
  invalid: [
    { code: 'const a = <div className="ml-2 p-1" />;', errors: [{ messageId: 'physicalClass' }] },
    {
      code: "const a = cn('pr-4', 'text-right');",
      errors: [{ messageId: 'physicalClass' }, { messageId: 'physicalClass' }],
    },
    { code: 'const a = `absolute ${x} left-0`;', errors: [{ messageId: 'physicalClass' }] },
    {
      code: "const r = cva('rounded-l-md', { variants: { v: { a: 'border-r' } } });",
      errors: [{ messageId: 'physicalClass' }, { messageId: 'physicalClass' }],
    },
    { code: 'const a = <div style={{ marginLeft: 4 }} />;', errors: [{ messageId: 'physicalProperty' }] },
    { code: 'const a = <div style={{ right: 0, paddingRight: 2 }} />;', errors: 2 },
    { code: "const a = <div style={{ textAlign: 'left' }} />;", errors: [{ messageId: 'physicalValue' }] },
    {
      code: "style({ selectors: { '&:hover': { borderLeftWidth: 2 } } });",
      errors: [{ messageId: 'physicalProperty' }],
    },
    { code: "globalStyle('.x', { 'margin-right': 0, float: 'right' });", errors: 2 },
    { code: 'const s: CSSProperties = { left: 0 };', errors: [{ messageId: 'physicalProperty' }] },
  ],
});
