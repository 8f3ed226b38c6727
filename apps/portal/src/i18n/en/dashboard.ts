export const dashboard = {
  home: {
    title: 'Home',
    greeting: 'Welcome back, {{name}}',
    period: { label: 'Period' },
    kpi: {
      vehicles: 'Vehicles',
      live: 'Live now',
      idle: 'Idle',
      offline: 'Offline',
      distance: 'Distance (km)',
      trips: 'Trips',
      alerts: 'Alerts',
      unread: 'Unread notifications',
    },
    chart: {
      distance: 'Distance per day',
      trips: 'Trips per day',
      distanceMonthly: 'Distance per month',
      tripsMonthly: 'Trips per month',
    },
  },
} as const;
