export { Button, Spinner, buttonRecipe, buttonVariants, buttonSizes, focusRing } from './button';
export type { ButtonProps, ButtonVariant, ButtonSize } from './button';
export { IconButton, iconButtonRecipe } from './icon-button';
export type { IconButtonProps } from './icon-button';
export { Link, linkRecipe, linkVariants } from './link';
export type { LinkProps, LinkVariant } from './link';
