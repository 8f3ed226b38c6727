export { NotFound } from './not-found';
export type { NotFoundProps } from './not-found';
