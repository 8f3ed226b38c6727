import type { SVGProps } from 'react';
import { cn } from '../lib/cn';

export interface IconProps extends SVGProps<SVGSVGElement> {
  /** Pixel size of the square icon (default 16). */
  size?: number;
  /** Accessible name; without it the icon is decorative (aria-hidden). */
  title?: string;
}

/**
 * Builds a 24x24 stroke icon. Directional icons (`directional: true`) mirror in RTL with
 * `rtl:-scale-x-100`; all others never flip.
 */
function createIcon(name: string, paths: React.ReactNode, directional = false) {
  function Icon({ size = 16, title, className, ...props }: IconProps) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        data-slot="icon"
        data-icon={name}
        aria-hidden={title ? undefined : true}
        role={title ? 'img' : undefined}
        focusable="false"
        className={cn('shrink-0', directional && 'rtl:-scale-x-100', className)}
        {...props}
      >
        {title ? <title>{title}</title> : null}
        {paths}
      </svg>
    );
  }
  Icon.displayName = `${name}Icon`;
  return Icon;
}

export const CheckIcon = createIcon('Check', <path d="M5 12.5l4.5 4.5L19 7.5" />);
export const CheckCircleIcon = createIcon(
  'CheckCircle',
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M8 12.5l2.8 2.8L16.5 9.5" />
  </>,
);
export const WarningIcon = createIcon(
  'Warning',
  <>
    <path d="M12 3.5L2.5 20h19L12 3.5z" />
    <path d="M12 10v4.5" />
    <path d="M12 17.5v.01" />
  </>,
);
export const ErrorIcon = createIcon(
  'Error',
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M9 9l6 6M15 9l-6 6" />
  </>,
);
export const InfoIcon = createIcon(
  'Info',
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 11v5.5M12 7.5v.01" />
  </>,
);
export const CloseIcon = createIcon('Close', <path d="M6 6l12 12M18 6L6 18" />);
export const ChevronDownIcon = createIcon('ChevronDown', <path d="M6 9l6 6 6-6" />);
export const ChevronUpIcon = createIcon('ChevronUp', <path d="M6 15l6-6 6 6" />);
/** Points to the inline end (right in LTR, left in RTL). */
export const ChevronEndIcon = createIcon('ChevronEnd', <path d="M9 6l6 6-6 6" />, true);
/** Points to the inline start. */
export const ChevronStartIcon = createIcon('ChevronStart', <path d="M15 6l-6 6 6 6" />, true);
export const ArrowEndIcon = createIcon('ArrowEnd', <path d="M5 12h14M13 6l6 6-6 6" />, true);
export const ArrowStartIcon = createIcon('ArrowStart', <path d="M19 12H5M11 6l-6 6 6 6" />, true);
export const SearchIcon = createIcon(
  'Search',
  <>
    <circle cx="11" cy="11" r="6.5" />
    <path d="M20 20l-4.2-4.2" />
  </>,
);
export const EyeIcon = createIcon(
  'Eye',
  <>
    <path d="M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12z" />
    <circle cx="12" cy="12" r="3" />
  </>,
);
export const EyeOffIcon = createIcon(
  'EyeOff',
  <>
    <path d="M10.6 5.6A9.6 9.6 0 0 1 12 5.5c6 0 9.5 6.5 9.5 6.5a17 17 0 0 1-2.6 3.4M6.4 6.9C3.9 8.6 2.5 12 2.5 12S6 18.5 12 18.5a9 9 0 0 0 4.6-1.3" />
    <path d="M9.9 9.9a3 3 0 0 0 4.2 4.2M3 3l18 18" />
  </>,
);
export const PlusIcon = createIcon('Plus', <path d="M12 5v14M5 12h14" />);
export const MinusIcon = createIcon('Minus', <path d="M5 12h14" />);
export const TrashIcon = createIcon(
  'Trash',
  <>
    <path d="M4 7h16M10 11v6M14 11v6" />
    <path d="M6 7l1 13h10l1-13M9 7V4h6v3" />
  </>,
);
export const EditIcon = createIcon(
  'Edit',
  <>
    <path d="M4 20h4L19 9l-4-4L4 16v4z" />
    <path d="M13.5 6.5l4 4" />
  </>,
);
export const UploadIcon = createIcon(
  'Upload',
  <>
    <path d="M12 16V4M7 9l5-5 5 5" />
    <path d="M4 16v4h16v-4" />
  </>,
);
export const CalendarIcon = createIcon(
  'Calendar',
  <>
    <rect x="3.5" y="5" width="17" height="15.5" rx="2" />
    <path d="M3.5 10h17M8 3v4M16 3v4" />
  </>,
);
export const ClockIcon = createIcon(
  'Clock',
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </>,
);
export const MenuIcon = createIcon('Menu', <path d="M4 6h16M4 12h16M4 18h16" />);
export const GlobeIcon = createIcon(
  'Globe',
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M3 12h18M12 3c2.5 2.7 3.7 5.7 3.7 9s-1.2 6.3-3.7 9c-2.5-2.7-3.7-5.7-3.7-9S9.5 5.7 12 3z" />
  </>,
);
export const BuildingIcon = createIcon(
  'Building',
  <>
    <path d="M4 21V4h10v17M14 9h6v12M2 21h20" />
    <path d="M7.5 8h3M7.5 12h3M7.5 16h3" />
  </>,
);
export const HomeIcon = createIcon(
  'Home',
  <>
    <path d="M3 11l9-7 9 7" />
    <path d="M5 9.5V20h14V9.5" />
  </>,
);
export const TruckIcon = createIcon(
  'Truck',
  <>
    <path d="M2.5 6h11v10h-11zM13.5 10h4l3 3v3h-7" />
    <circle cx="6.5" cy="17.5" r="1.8" />
    <circle cx="17" cy="17.5" r="1.8" />
  </>,
);
export const MapPinIcon = createIcon(
  'MapPin',
  <>
    <path d="M12 21s-7-6.2-7-11.5a7 7 0 0 1 14 0C19 14.8 12 21 12 21z" />
    <circle cx="12" cy="9.5" r="2.5" />
  </>,
);
export const UserIcon = createIcon(
  'User',
  <>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21c0-4.4 3.6-7 8-7s8 2.6 8 7" />
  </>,
);
export const SettingsIcon = createIcon(
  'Settings',
  <>
    <circle cx="12" cy="12" r="3" />
    <path d="M12 2.5v3M12 18.5v3M2.5 12h3M18.5 12h3M5.3 5.3l2.1 2.1M16.6 16.6l2.1 2.1M5.3 18.7l2.1-2.1M16.6 7.4l2.1-2.1" />
  </>,
);
export const BellIcon = createIcon(
  'Bell',
  <>
    <path d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15L6 16z" />
    <path d="M10 20.5a2 2 0 0 0 4 0" />
  </>,
);
export const ChartIcon = createIcon('Chart', <path d="M4 20V4M4 20h16M8 16v-5M12 16V8M16 16v-3" />);
export const RefreshIcon = createIcon(
  'Refresh',
  <>
    <path d="M20 12a8 8 0 1 1-2.3-5.6" />
    <path d="M20 4v5h-5" />
  </>,
);
export const CloudOffIcon = createIcon(
  'CloudOff',
  <>
    <path d="M7 18h10.5a4 4 0 0 0 1.3-7.8A6 6 0 0 0 8.4 7.5M4.5 8.6A4.8 4.8 0 0 0 7 18" />
    <path d="M3 3l18 18" />
  </>,
);
export const InboxIcon = createIcon(
  'Inbox',
  <>
    <path d="M3 13l3-8h12l3 8v6H3v-6z" />
    <path d="M3 13h5l1 2h6l1-2h5" />
  </>,
);
export const MoreIcon = createIcon(
  'More',
  <>
    <circle cx="5" cy="12" r="1" />
    <circle cx="12" cy="12" r="1" />
    <circle cx="19" cy="12" r="1" />
  </>,
);
export const ExternalLinkIcon = createIcon(
  'ExternalLink',
  <>
    <path d="M14 4h6v6M20 4l-9 9" />
    <path d="M18 14v6H4V6h6" />
  </>,
  true,
);
export const TrendUpIcon = createIcon('TrendUp', <path d="M3 17l6-6 4 4 8-8M15 7h6v6" />, true);
export const TrendDownIcon = createIcon('TrendDown', <path d="M3 7l6 6 4-4 8 8M15 17h6v-6" />, true);
