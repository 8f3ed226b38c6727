export const messages = {
  list: {
    title: 'Sent messages',
    intro:
      'E-mail and SMS sent by the product, newest first. Without SMTP configured, e-mail stays here, in the local mailbox.',
    empty: 'No messages yet',
    filter: 'Status',
    all: 'All',
    search: 'Search by recipient or subject',
    open: 'Read',
    close: 'Close',
  },
  status: { queued: 'Queued', sent: 'Sent', failed: 'Failed' },
  transport: { smtp: 'SMTP', mailbox: 'Local mailbox', 'sms-http': 'SMS provider' },
  channel: { email: 'E-mail', sms: 'SMS' },
  details: {
    to: 'To',
    created: 'Queued at',
    sent: 'Sent at',
    attempts: 'Attempts',
    via: 'Delivered via',
    error: 'Reason',
    language: 'Language',
    preview: 'Preview',
    text: 'Plain text',
    noContent: 'The content is not kept once a message has left (it carries one-time links and codes).',
    frame: 'Message preview',
  },
  invite: {
    action: 'Resend invitation',
    sent: 'The invitation has been sent.',
  },
} as const;
