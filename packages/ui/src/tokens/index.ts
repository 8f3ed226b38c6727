import './theme.css';

export { vars, tokenVariableName, type Vars } from './contract';
export { palette, type PaletteName } from './palette';
export {
  semanticColorNames,
  lightColors,
  darkColors,
  type SemanticColorName,
  type SemanticValue,
} from './semantic';
export { radius, space, font } from './scales';
export { toKebab } from './kebab';
