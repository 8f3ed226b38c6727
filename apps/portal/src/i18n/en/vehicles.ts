/** The vehicle overview (vehicle details page): live card, tabs, documents and their expiry. */
export const vehicles = {
  overview: {
    live: 'Live',
    noLocation: 'This vehicle has not reported a location yet.',
    lastSeen: 'Last seen',
    fuel: 'Fuel',
    voltage: 'Power',
    sections: 'Vehicle sections',
  },
  list: {
    liveStatus: 'Live status',
    never: 'Never',
    lastSeenRange: {
      hour: 'Within the last hour',
      day: 'Within 24 hours',
      week: 'Within 7 days',
      older: 'More than 7 days ago',
      never: 'Never',
    },
  },
  tab: {
    trips: 'Trips',
    alerts: 'Alerts',
    documents: 'Documents',
    commands: 'Commands',
    history: 'Route history',
  },
  trips: {
    range: 'Last 7 days',
    empty: 'No trips in the last 7 days.',
    started: 'Started',
    ended: 'Ended',
    ongoing: 'Under way',
    distance: 'Distance',
    distanceValue: '{{km}} km',
    duration: 'Duration',
    maxSpeed: 'Top speed',
  },
  alerts: {
    empty: 'No alerts about this vehicle.',
    all: 'All notifications',
    unread: 'Unread',
  },
  documents: {
    document: 'Document',
    owner: 'Holder',
    expires: 'Expires',
    state: 'State',
    empty: 'No expiry dates are recorded for this vehicle or its driver.',
    noDate: 'Not recorded',
    days: 'in {{days}} days',
    daysAgo: '{{days}} days ago',
    reminders:
      'Reminders go out 30, 7 and 1 days before and on the day, to the users who get this vehicle’s alerts.',
    kind: {
      vehicle_registration: 'Registration',
      vehicle_insurance: 'Insurance',
      vehicle_license: 'Operating licence',
      driver_license: 'Driving licence',
      driver_national_id: 'National ID',
      driver_residence_permit: 'Residence permit (Iqama)',
    },
    stateLabel: {
      valid: 'Valid',
      dueSoon: 'Expires within 30 days',
      dueThisWeek: 'Expires this week',
      expiresToday: 'Expires today',
      expired: 'Expired',
    },
  },
  commands: {
    noDevice: 'No tracker is linked to this vehicle, so it cannot receive commands.',
  },
  history: {
    open: 'Open the full route history',
  },
} as const;
