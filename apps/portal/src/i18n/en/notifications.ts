export const notifications = {
  list: {
    title: 'Notifications',
    empty: 'No notifications yet',
    markRead: 'Mark as read',
    markAllRead: 'Mark all as read',
    unread: 'Unread',
    read: 'Read',
    all: 'All',
    filter: 'Read state',
  },
  details: { title: 'Notification', vehicle: 'Vehicle', violation: 'Violation value', time: 'Time' },
  toast: { received: 'New notification' },
} as const;
