export { Combobox, filterOptions } from './combobox';
export type { ComboboxProps, ComboboxOption } from './combobox';
