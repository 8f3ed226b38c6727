export { NativeSelect } from './native-select';
export type { NativeSelectProps, NativeSelectOption } from './native-select';
