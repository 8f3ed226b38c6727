export { RadioGroup, radioOrientations } from './radio-group';
export type { RadioGroupProps, RadioOption, RadioOrientation } from './radio-group';
