export const settings = {
  page: { title: 'Settings', profile: 'Profile', preferences: 'Preferences', security: 'Security' },
  item: {
    language: 'Language',
    theme: 'Theme',
    changePassword: 'Change password',
    company: 'Transport company',
    logout: 'Log out',
  },
  changePassword: {
    title: 'Change password',
    current: 'Current password',
    password: 'New password',
    confirm: 'Confirm new password',
    submit: 'Change password',
    success: 'Your password was changed',
  },
  otp: {
    title: 'Enter the code',
    description: 'We sent a verification code to {{target}}.',
    verify: 'Verify',
    resend: 'Resend code',
    resendIn: 'Resend in {{seconds}} s',
    invalid: 'The code is not correct',
  },
} as const;
