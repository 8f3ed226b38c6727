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
    noContent:
      'The content is not shown: it carries one-time links and codes. Super admins read the mail kept in the local mailbox; mail that left through SMTP or SMS is not kept.',
    frame: 'Message preview',
  },
  share: {
    title: 'Shared live location',
    updated: 'Last position {{time}}',
    noPosition: 'No position received yet',
    expires: 'The link works until {{time}}',
    invalidTitle: 'This link is not available',
    invalid: 'The link is invalid or has expired. Ask the sender for a new one.',
  },
  invite: {
    action: 'Resend invitation',
    sent: 'The invitation has been sent.',
  },
} as const;
