export { Input, inputKinds, controlSizes, controlRecipe } from './input';
export type { InputProps, InputKind, ControlSize } from './input';
