import { common } from './common';
import { auth } from './auth';
import { nav } from './nav';
import { dashboard } from './dashboard';
import { live } from './live';
import { entities } from './entities';
import { fields } from './fields';
import { notifications } from './notifications';
import { commands } from './commands';
import { reports } from './reports';
import { settings } from './settings';
import { geofences } from './geofences';
import { devices } from './devices';
import { messages } from './messages';
import { alerts } from './alerts';
import { platform } from './platform';
import { vehicles } from './vehicles';

/** English is the default language (en-US) and is bundled; Arabic is loaded on demand. */
export const en = {
  common,
  auth,
  nav,
  dashboard,
  live,
  entities,
  fields,
  notifications,
  commands,
  reports,
  settings,
  geofences,
  devices,
  messages,
  alerts,
  platform,
  vehicles,
} as const;

export type Namespace = keyof typeof en;
export const namespaces = Object.keys(en) as Namespace[];

/** The same tree with every leaf widened to `string`: the shape a translation must have. */
export type Catalog<T> = { [K in keyof T]: T[K] extends string ? string : Catalog<T[K]> };
export type Resources = Catalog<typeof en>;
