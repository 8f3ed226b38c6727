import { cva } from 'class-variance-authority';
import type { UiMessages } from '../i18n';
import { format } from '../i18n';
import { cn } from '../lib/cn';
import { useLabels } from '../provider';

/** sm: list rows, md: map popups, lg: notifications. */
export const plateCardSizes = ['sm', 'md', 'lg'] as const;
export type PlateCardSize = (typeof plateCardSizes)[number];

export const plateCardRecipe = cva(
  'inline-flex shrink-0 flex-col overflow-hidden border-2 border-foreground bg-surface text-foreground align-middle',
  {
    variants: {
      size: {
        sm: 'min-w-20 rounded-sm',
        md: 'min-w-28 rounded-md',
        lg: 'min-w-36 rounded-lg',
      } satisfies Record<PlateCardSize, string>,
    },
    defaultVariants: { size: 'md' },
  },
);

const barSize: Record<PlateCardSize, string> = {
  sm: 'px-1.5 py-px text-[10px] gap-1.5',
  md: 'px-2 py-0.5 text-xs gap-2',
  lg: 'px-2.5 py-1 text-sm gap-2',
};
const numberSize: Record<PlateCardSize, string> = {
  sm: 'px-1.5 py-0.5 text-sm',
  md: 'px-2 py-1 text-lg',
  lg: 'px-3 py-1.5 text-2xl',
};

export interface PlateCardProps {
  /** license_plate_state_code, e.g. 'DXB' or 'AD'. */
  stateCode: string;
  /** license_plate_category, e.g. 'A' or '12'. */
  category?: string | null;
  /** license_plate_number. */
  number: string;
  size?: PlateCardSize;
  className?: string;
  labels?: Partial<Pick<UiMessages, 'plateLabel'>>;
}

/**
 * The spec's small plate card: state code and category on a top bar, the number below.
 * Plate text is Latin and always laid out LTR (dir="ltr"), also inside Arabic pages; the whole
 * card is one image for screen readers ("Plate DXB A 12345").
 */
export function PlateCard({ stateCode, category, number, size = 'md', className, labels }: PlateCardProps) {
  const text = useLabels(['plateLabel'], labels);
  const label = format(text.plateLabel, { state: stateCode, category: category ?? '', number })
    .replace(/\s+/g, ' ')
    .trim();
  return (
    <span
      role="img"
      aria-label={label}
      data-slot="plate-card"
      data-size={size}
      dir="ltr"
      className={cn(plateCardRecipe({ size }), className)}
    >
      <span
        data-slot="plate-card-bar"
        aria-hidden="true"
        className={cn(
          'flex items-center justify-between bg-foreground font-semibold tracking-wide text-background uppercase',
          barSize[size],
        )}
      >
        <span data-slot="plate-card-state">{stateCode}</span>
        {category ? <span data-slot="plate-card-category">{category}</span> : null}
      </span>
      <span
        data-slot="plate-card-number"
        aria-hidden="true"
        className={cn('text-center font-bold tracking-wider whitespace-nowrap tabular-nums', numberSize[size])}
      >
        {number}
      </span>
    </span>
  );
}
