/**
 * The UI pieces pages import, from @fleet/ui. `LinkButton` is a router link with the kit's button
 * look (the kit's Button with `asChild`).
 */
import type { ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router-dom';
import { Button, type ButtonSize, type ButtonVariant } from '@fleet/ui';

export {
  ArrowEndIcon,
  ArrowStartIcon,
  BellIcon,
  Button,
  ChartIcon,
  CheckCircleIcon,
  CloseIcon,
  CloudOffIcon,
  EditIcon,
  ErrorIcon,
  ExternalLinkIcon,
  GlobeIcon,
  MenuIcon,
  PlusIcon,
  SearchIcon,
  Spinner,
  TrashIcon,
  WarningIcon,
  buttonRecipe,
  cn,
} from '@fleet/ui';
export type { ButtonProps, ButtonSize, ButtonVariant } from '@fleet/ui';

export function LinkButton({
  variant,
  size,
  startIcon,
  endIcon,
  children,
  ...props
}: LinkProps & { variant?: ButtonVariant; size?: ButtonSize; startIcon?: ReactNode; endIcon?: ReactNode }) {
  return (
    <Button asChild {...(variant ? { variant } : {})} {...(size ? { size } : {})}>
      <Link {...props}>
        {startIcon}
        {children}
        {endIcon}
      </Link>
    </Button>
  );
}
