import type { Resources } from '../en';
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

/** Arabic catalog; loaded lazily (its own chunk) the first time Arabic is chosen. */
export const ar: Resources = {
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
};
