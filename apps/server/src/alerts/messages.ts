/**
 * English and Arabic templates for alerts (a module of its own, shared by the pipeline that raises alerts,
 * the notification routes and the realtime hub that words them per connection; none imports another's).
 * An alert carries `titleKey`/`messageKey` plus
 * `params`; the server renders them in each recipient's language when it creates the Notification.
 * Placeholders are `{name}`; a param `name_en` / `name_ar` wins over `name` in that language (gate,
 * geofence and document names have both).
 */

export const alertMessagesEn = {
  'alerts.overspeed.title': 'Overspeed',
  'alerts.overspeed.message': '{plate} was driving at {speed} km/h, over the {limit} km/h limit.',
  'alerts.overspeed.episode':
    '{plate} drove over the {limit} km/h limit for {minutes} min, at up to {speed} km/h.',
  'alerts.idling.title': 'Idling',
  'alerts.idling.message': '{plate} has been idling with the engine on for {minutes} min.',
  'alerts.idling.ended': '{plate} idled with the engine on for {minutes} min.',
  'alerts.emergency_button.title': 'Emergency button',
  'alerts.emergency_button.message': '{plate}: the driver pressed the emergency button.',
  'alerts.violation_output.title': 'Violation',
  'alerts.violation_output.message': '{plate}: the violation output was activated.',
  'alerts.ignition_on.title': 'Ignition on',
  'alerts.ignition_on.message': '{plate}: ignition switched on.',
  'alerts.ignition_off.title': 'Ignition off',
  'alerts.ignition_off.message': '{plate}: ignition switched off.',
  'alerts.device_unplugged.title': 'Device unplugged',
  'alerts.device_unplugged.message': '{plate}: the tracking device lost its external power.',
  'alerts.low_battery.title': 'Low battery',
  'alerts.low_battery.message': '{plate}: the device battery is low ({value}).',
  'alerts.geofence_entry.title': 'Geofence entry',
  'alerts.geofence_entry.message': '{plate} entered {geofence}.',
  'alerts.geofence_exit.title': 'Geofence exit',
  'alerts.geofence_exit.message': '{plate} left {geofence} after {dwell} min.',
  'alerts.salik_crossing.title': 'Salik toll',
  'alerts.salik_crossing.message': '{plate} passed the {gate} gate ({fee} {currency}).',
  'alerts.device_offline.title': 'Device offline',
  'alerts.device_offline.message': '{plate}: no data for {minutes} minutes.',
  'alerts.vehicle_inactive.title': 'Vehicle inactive',
  'alerts.vehicle_inactive.message': 'Your vehicle has been inactive for over a month.',
  'alerts.document_expiry.title': 'Document expiring',
  'alerts.document_expiry.message': '{document} of {owner} expires on {date} (in {days} days).',
  'alerts.document_expiry.expired': '{document} of {owner} expired on {date}.',
  'alerts.document_expiry.tomorrow': '{document} of {owner} expires tomorrow, {date}.',
  'alerts.document_expiry.today': '{document} of {owner} expires today, {date}.',
  'alerts.trip_delayed.title': 'Trip delayed',
  'alerts.trip_delayed.message': '{trip} has not started {minutes} min after its start time.',
  'alerts.trip_missed.title': 'Trip missed',
  'alerts.trip_missed.message': '{trip} did not run.',
  'alerts.bus_approaching.title': 'Bus approaching',
  'alerts.bus_approaching.message': '{plate} is about {minutes} min from {stop}.',
  'documents.vehicle_registration': 'Vehicle registration',
  'documents.vehicle_insurance': 'Vehicle insurance',
  'documents.vehicle_license': 'Vehicle licence',
  'documents.driver_license': 'Driving licence',
  'documents.driver_national_id': 'National ID',
  'documents.driver_residence_permit': 'Residence permit',
} as const;

export type AlertMessageKey = keyof typeof alertMessagesEn;

export const alertMessagesAr = {
  'alerts.overspeed.title': 'تجاوز السرعة',
  'alerts.overspeed.message': 'كانت المركبة {plate} تسير بسرعة {speed} كم/س متجاوزة الحد {limit} كم/س.',
  'alerts.overspeed.episode':
    'تجاوزت المركبة {plate} الحد {limit} كم/س لمدة {minutes} دقيقة، بسرعة قصوى {speed} كم/س.',
  'alerts.idling.title': 'توقف مع تشغيل المحرك',
  'alerts.idling.message': 'المركبة {plate} متوقفة والمحرك يعمل منذ {minutes} دقيقة.',
  'alerts.idling.ended': 'توقفت المركبة {plate} والمحرك يعمل لمدة {minutes} دقيقة.',
  'alerts.emergency_button.title': 'زر الطوارئ',
  'alerts.emergency_button.message': '{plate}: ضغط السائق على زر الطوارئ.',
  'alerts.violation_output.title': 'مخالفة',
  'alerts.violation_output.message': '{plate}: تم تفعيل مخرج المخالفة.',
  'alerts.ignition_on.title': 'تشغيل المحرك',
  'alerts.ignition_on.message': '{plate}: تم تشغيل المحرك.',
  'alerts.ignition_off.title': 'إيقاف المحرك',
  'alerts.ignition_off.message': '{plate}: تم إيقاف المحرك.',
  'alerts.device_unplugged.title': 'فصل الجهاز',
  'alerts.device_unplugged.message': '{plate}: انقطعت الطاقة الخارجية عن جهاز التتبع.',
  'alerts.low_battery.title': 'بطارية منخفضة',
  'alerts.low_battery.message': '{plate}: بطارية الجهاز منخفضة ({value}).',
  'alerts.geofence_entry.title': 'دخول منطقة',
  'alerts.geofence_entry.message': 'دخلت المركبة {plate} منطقة {geofence}.',
  'alerts.geofence_exit.title': 'خروج من منطقة',
  'alerts.geofence_exit.message': 'غادرت المركبة {plate} منطقة {geofence} بعد {dwell} دقيقة.',
  'alerts.salik_crossing.title': 'رسوم سالك',
  'alerts.salik_crossing.message': 'عبرت المركبة {plate} بوابة {gate} ({fee} {currency}).',
  'alerts.device_offline.title': 'الجهاز غير متصل',
  'alerts.device_offline.message': '{plate}: لا توجد بيانات منذ {minutes} دقيقة.',
  'alerts.vehicle_inactive.title': 'مركبة غير نشطة',
  'alerts.vehicle_inactive.message': 'مركبتك غير نشطة منذ أكثر من شهر.',
  'alerts.document_expiry.title': 'وثيقة قاربت على الانتهاء',
  'alerts.document_expiry.message': 'تنتهي {document} الخاصة بـ {owner} في {date} (بعد {days} يوم).',
  'alerts.document_expiry.expired': 'انتهت {document} الخاصة بـ {owner} في {date}.',
  'alerts.document_expiry.tomorrow': 'تنتهي {document} الخاصة بـ {owner} غدًا، {date}.',
  'alerts.document_expiry.today': 'تنتهي {document} الخاصة بـ {owner} اليوم، {date}.',
  'alerts.trip_delayed.title': 'تأخر الرحلة',
  'alerts.trip_delayed.message': 'لم تبدأ الرحلة {trip} بعد {minutes} دقيقة من موعدها.',
  'alerts.trip_missed.title': 'رحلة فائتة',
  'alerts.trip_missed.message': 'لم يتم تنفيذ الرحلة {trip}.',
  'alerts.bus_approaching.title': 'الحافلة تقترب',
  'alerts.bus_approaching.message': 'الحافلة {plate} على بعد حوالي {minutes} دقيقة من {stop}.',
  'documents.vehicle_registration': 'استمارة المركبة',
  'documents.vehicle_insurance': 'تأمين المركبة',
  'documents.vehicle_license': 'رخصة المركبة',
  'documents.driver_license': 'رخصة القيادة',
  'documents.driver_national_id': 'الهوية الوطنية',
  'documents.driver_residence_permit': 'الإقامة',
} as const satisfies Record<AlertMessageKey, string>;

export type AlertLocale = 'en' | 'ar';

const catalogues: Record<AlertLocale, Record<AlertMessageKey, string>> = {
  en: alertMessagesEn,
  ar: alertMessagesAr,
};

/** Fills a template; unknown placeholders stay visible rather than silently vanishing. */
export function renderMessage(
  key: AlertMessageKey,
  params: Readonly<Record<string, string | number>>,
  locale: AlertLocale,
): string {
  const template = (catalogues[locale] ?? catalogues.en)[key];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = params[`${name}_${locale}`] ?? params[name];
    return v === undefined ? whole : String(v);
  });
}

/** Picks 'ar' for any Arabic locale tag (ar, ar-AE ...), else 'en' (the spec's default en-US). */
export function alertLocale(tag: string | null | undefined): AlertLocale {
  return tag && tag.toLowerCase().startsWith('ar') ? 'ar' : 'en';
}

/**
 * The message keys whose `locale` template contains `term` (case-insensitive) in its fixed text, the
 * placeholders left out: with them a search in the reader's language finds the alerts whose rendered
 * text shows that word.
 */
export function alertKeysMatching(term: string, locale: AlertLocale): AlertMessageKey[] {
  const needle = term.toLocaleLowerCase();
  if (!needle) return [];
  const catalogue = catalogues[locale] ?? catalogues.en;
  return (Object.keys(catalogue) as AlertMessageKey[]).filter((key) =>
    catalogue[key].split(/\{\w+\}/).some((part) => part.toLocaleLowerCase().includes(needle)),
  );
}

const isAlertKey = (k: unknown): k is AlertMessageKey => typeof k === 'string' && k in alertMessagesEn;

/**
 * Title and message of a stored alert in `locale`, from the keys and parameters a notification keeps in
 * its data (`title_key`, `message_key`, `params`); null when the data carries no such keys (a
 * notification created through the API keeps its own text).
 */
export function localizedAlertText(
  data: unknown,
  locale: AlertLocale,
): { title: string; message: string } | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as { title_key?: unknown; message_key?: unknown; params?: unknown };
  if (!isAlertKey(d.title_key) || !isAlertKey(d.message_key)) return null;
  if (typeof d.params !== 'object' || d.params === null) return null;
  const params = d.params as Record<string, string | number>;
  return {
    title: renderMessage(d.title_key, params, locale),
    message: renderMessage(d.message_key, params, locale),
  };
}
