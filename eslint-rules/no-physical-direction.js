// ESLint rule: reject physical left/right styling in the UI kit and the portal.
// Both must work in Arabic (RTL), so spacing, borders, radii, positions and alignment use logical
// names: Tailwind `ms-/me-/ps-/pe-/start-/end-/text-start/rounded-s/border-s`, CSS
// `marginInlineStart/insetInlineEnd/...`. Classes under an explicit `ltr:` or `rtl:` variant are
// allowed (they are direction-aware by construction), as is a `// eslint-disable` with a reason.

/** Physical Tailwind utility (variants stripped) -> logical replacement hint. */
const CLASS_RULES = [
  [/^(-?)m([lr])-(.+)$/, (m) => `${m[1]}m${m[2] === 'l' ? 's' : 'e'}-${m[3]}`],
  [/^p([lr])-(.+)$/, (m) => `p${m[1] === 'l' ? 's' : 'e'}-${m[2]}`],
  [/^(-?)scroll-([mp])([lr])-(.+)$/, (m) => `${m[1]}scroll-${m[2]}${m[3] === 'l' ? 's' : 'e'}-${m[4]}`],
  [/^(-?)(left|right)-(.+)$/, (m) => `${m[1]}${m[2] === 'left' ? 'start' : 'end'}-${m[3]}`],
  [/^text-(left|right)$/, (m) => `text-${m[1] === 'left' ? 'start' : 'end'}`],
  [/^(float|clear)-(left|right)$/, (m) => `${m[1]}-${m[2] === 'left' ? 'start' : 'end'}`],
  [/^rounded-([lr])(-.+)?$/, (m) => `rounded-${m[1] === 'l' ? 's' : 'e'}${m[2] ?? ''}`],
  [
    /^rounded-([tb])([lr])(-.+)?$/,
    (m) => `rounded-${m[1] === 't' ? 's' : 'e'}${m[2] === 'l' ? 's' : 'e'}${m[3] ?? ''}`,
  ],
  [/^border-([lr])(-.+)?$/, (m) => `border-${m[1] === 'l' ? 's' : 'e'}${m[2] ?? ''}`],
  [/^origin-(?:(top|bottom)-)?(left|right)$/, () => 'a logical alternative (or an rtl:/ltr: pair)'],
  [/^bg-(?:(?:top|bottom)-)?(left|right)$/, () => 'a logical alternative (or an rtl:/ltr: pair)'],
];

/** Physical CSS properties (camelCase and kebab-case) -> logical replacement. */
const PROPERTY_RULES = {
  marginLeft: 'marginInlineStart',
  marginRight: 'marginInlineEnd',
  paddingLeft: 'paddingInlineStart',
  paddingRight: 'paddingInlineEnd',
  left: 'insetInlineStart',
  right: 'insetInlineEnd',
  borderLeft: 'borderInlineStart',
  borderRight: 'borderInlineEnd',
  borderLeftWidth: 'borderInlineStartWidth',
  borderRightWidth: 'borderInlineEndWidth',
  borderLeftColor: 'borderInlineStartColor',
  borderRightColor: 'borderInlineEndColor',
  borderLeftStyle: 'borderInlineStartStyle',
  borderRightStyle: 'borderInlineEndStyle',
  borderTopLeftRadius: 'borderStartStartRadius',
  borderTopRightRadius: 'borderStartEndRadius',
  borderBottomLeftRadius: 'borderEndStartRadius',
  borderBottomRightRadius: 'borderEndEndRadius',
  scrollMarginLeft: 'scrollMarginInlineStart',
  scrollMarginRight: 'scrollMarginInlineEnd',
  scrollPaddingLeft: 'scrollPaddingInlineStart',
  scrollPaddingRight: 'scrollPaddingInlineEnd',
};
const kebab = (s) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
for (const [k, v] of Object.entries({ ...PROPERTY_RULES })) PROPERTY_RULES[kebab(k)] = kebab(v);

/** Properties whose *value* may be physical: textAlign: 'left' -> 'start'. */
const VALUE_RULES = { textAlign: true, 'text-align': true, float: true, clear: true };

/** vanilla-extract calls whose object arguments are style objects. */
const STYLE_CALLEES = new Set(['style', 'globalStyle', 'styleVariants', 'recipe', 'keyframes', 'createVar']);

/** Returns the replacement hint when `token` (one class, maybe with variants) is physical. */
export function physicalClass(token) {
  const parts = token.split(':');
  const variants = parts.slice(0, -1);
  if (variants.some((v) => v === 'rtl' || v === 'ltr')) return null;
  const utility = parts[parts.length - 1].replace(/^!/, '').replace(/!$/, '');
  for (const [re, fix] of CLASS_RULES) {
    const m = utility.match(re);
    if (m) return fix(m);
  }
  return null;
}

function propertyName(prop) {
  if (prop.type !== 'Property' || prop.computed) return null;
  if (prop.key.type === 'Identifier') return prop.key.name;
  if (prop.key.type === 'Literal' && typeof prop.key.value === 'string') return prop.key.value;
  return null;
}

function isStyleObject(node) {
  // Walk up through nested objects (selectors, @media, variants) to the owner.
  let current = node;
  while (current.parent) {
    const parent = current.parent;
    if (parent.type === 'JSXExpressionContainer') {
      const attr = parent.parent;
      return attr?.type === 'JSXAttribute' && attr.name.name === 'style';
    }
    if (parent.type === 'CallExpression') {
      const callee = parent.callee;
      const name =
        callee.type === 'Identifier'
          ? callee.name
          : callee.type === 'MemberExpression'
            ? callee.property.name
            : null;
      return STYLE_CALLEES.has(name);
    }
    if (parent.type === 'VariableDeclarator') {
      // const s: CSSProperties = {...}
      const ann = parent.id.typeAnnotation?.typeAnnotation;
      const text = ann?.typeName?.name ?? ann?.typeName?.right?.name;
      return text === 'CSSProperties' || text === 'StyleRule';
    }
    if (
      ![
        'ObjectExpression',
        'Property',
        'ArrayExpression',
        'TSAsExpression',
        'TSSatisfiesExpression',
        'ConditionalExpression',
        'LogicalExpression',
      ].includes(parent.type)
    ) {
      return false;
    }
    current = parent;
  }
  return false;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow physical left/right classes and style properties; use logical ones (RTL)',
    },
    schema: [],
    messages: {
      physicalClass: "Physical class '{{token}}' breaks RTL; use '{{fix}}'.",
      physicalProperty: "Physical style property '{{name}}' breaks RTL; use '{{fix}}'.",
      physicalValue: "'{{name}}: {{value}}' breaks RTL; use '{{fix}}'.",
    },
  },
  create(context) {
    function checkText(node, text) {
      for (const token of text.split(/\s+/)) {
        if (!token) continue;
        const fix = physicalClass(token);
        if (fix) context.report({ node, messageId: 'physicalClass', data: { token, fix } });
      }
    }
    return {
      Literal(node) {
        if (typeof node.value !== 'string') return;
        // Object keys of style objects are handled by Property; import paths are not classes.
        if (node.parent?.type === 'ImportDeclaration' || node.parent?.type === 'ExportNamedDeclaration')
          return;
        if (node.parent?.type === 'Property' && node.parent.key === node) return;
        if (node.parent?.type === 'Property' && node.parent.value === node && isStyleObject(node.parent))
          return;
        checkText(node, node.value);
      },
      TemplateElement(node) {
        checkText(node, node.value.cooked ?? node.value.raw);
      },
      Property(node) {
        if (!isStyleObject(node)) return;
        const name = propertyName(node);
        if (!name) return;
        if (Object.hasOwn(PROPERTY_RULES, name)) {
          context.report({
            node: node.key,
            messageId: 'physicalProperty',
            data: { name, fix: PROPERTY_RULES[name] },
          });
        } else if (
          VALUE_RULES[name] &&
          node.value.type === 'Literal' &&
          (node.value.value === 'left' || node.value.value === 'right')
        ) {
          const fix = `${name}: '${node.value.value === 'left' ? 'start' : 'end'}'`;
          context.report({
            node: node.value,
            messageId: 'physicalValue',
            data: { name, value: node.value.value, fix },
          });
        }
      },
    };
  },
};

export default rule;
