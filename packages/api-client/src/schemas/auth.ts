/**
 * Sign-in, session and password flows.
 *
 * - POST /v1/login takes exactly one of email or phone, and the password (the spec leaves the request
 *   shape out); it answers {data: {token, media_app_token, user}}.
 * - GET /v1/auth answers {data: {user, transport_companies}}.
 * - Set password (invitation link), forgot / reset password (link or OTP), change password (signed in),
 *   OTP send / verify, password verification (a short-lived token for sensitive actions such as
 *   immobilize) and company switch.
 */
import { z } from 'zod';
import {
  PASSWORD_MISMATCH_MESSAGE,
  dataEnvelope,
  emailField,
  fieldError,
  isoDateTimeSchema,
  passwordField,
  phoneField,
  requiredMessage,
  uuidRef,
} from './common';
import { transportCompanySchema } from './company';
import { userSchema } from './user';

/** Exactly one of email / phone. */
function oneIdentity(
  value: { email?: string | undefined; phone?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (value.email === undefined && value.phone === undefined) {
    ctx.addIssue({ code: 'custom', path: ['email'], message: requiredMessage('Email') });
  } else if (value.email !== undefined && value.phone !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['phone'], message: 'Use either email or phone, not both' });
  }
}

export const loginInputSchema = z
  .object({
    email: emailField().optional(),
    phone: phoneField().optional(),
    password: z
      .string({ error: fieldError('Password') })
      .min(1, { error: requiredMessage('Password') })
      .max(128),
  })
  .superRefine(oneIdentity);
export type LoginInput = z.input<typeof loginInputSchema>;

export const loginResultSchema = z.object({
  token: z.string().min(1),
  /** Token for media (files, camera footage) where headers cannot be sent. */
  media_app_token: z.string().min(1),
  user: userSchema,
});
export type LoginResult = z.infer<typeof loginResultSchema>;
export const loginResponseSchema = dataEnvelope(loginResultSchema);

export const authSessionSchema = z.object({
  user: userSchema,
  transport_companies: z.array(transportCompanySchema),
});
export type AuthSession = z.infer<typeof authSessionSchema>;
export const authResponseSchema = dataEnvelope(authSessionSchema);

/** Password + confirmation with the spec's mismatch message on the confirmation field. */
function withConfirmation<T extends z.ZodRawShape>(shape: T) {
  return z
    .object({
      ...shape,
      password: passwordField(),
      password_confirmation: z
        .string({ error: fieldError('Confirm password') })
        .min(1, { error: requiredMessage('Confirm password') }),
    })
    .refine(
      (value) => {
        const pair = value as { password: string; password_confirmation: string };
        return pair.password === pair.password_confirmation;
      },
      {
        path: ['password_confirmation'],
        error: PASSWORD_MISMATCH_MESSAGE,
      },
    );
}

/** POST /v1/set-password/{token} (the token is in the path). */
export const setPasswordInputSchema = withConfirmation({});
export type SetPasswordInput = z.input<typeof setPasswordInputSchema>;

export const tokenParamsSchema = z.object({ token: z.string().min(16).max(500) });

/** POST /v1/forgot-password: sends a reset link (email) or an OTP (phone). Same answer whether or not the account exists. */
export const forgotPasswordInputSchema = z
  .object({ email: emailField().optional(), phone: phoneField().optional() })
  .superRefine(oneIdentity);
export type ForgotPasswordInput = z.input<typeof forgotPasswordInputSchema>;

/** POST /v1/reset-password: the token from the link, or the one POST /v1/otp/verify returned. */
export const resetPasswordInputSchema = withConfirmation({
  token: z
    .string({ error: fieldError('Token') })
    .min(16, { error: requiredMessage('Token') })
    .max(500),
});
export type ResetPasswordInput = z.input<typeof resetPasswordInputSchema>;

export const changePasswordInputSchema = withConfirmation({
  current_password: z
    .string({ error: fieldError('Current password') })
    .min(1, { error: requiredMessage('Current password') })
    .max(128),
}).refine((value) => value.current_password !== value.password, {
  path: ['password'],
  error: 'New password must be different from the current password',
});
export type ChangePasswordInput = z.input<typeof changePasswordInputSchema>;

export const otpPurposes = ['login', 'reset_password', 'verify_phone', 'sensitive_action'] as const;
export const otpPurposeSchema = z.enum(otpPurposes, { error: fieldError('Purpose') });

/**
 * POST /v1/otp/send: to the signed-in user (no email/phone needed), or to an identity for sign-in and
 * password reset.
 */
export const otpSendInputSchema = z.object({
  purpose: otpPurposeSchema,
  email: emailField().optional(),
  phone: phoneField().optional(),
});
export type OtpSendInput = z.input<typeof otpSendInputSchema>;

export const otpSentSchema = z.object({
  expires_at: isoDateTimeSchema,
  /** Seconds before another code may be requested. */
  resend_after: z.number().int().min(0),
});
export const otpSendResponseSchema = dataEnvelope(otpSentSchema);

/** OTP codes are 4 to 8 digits (6 by default). */
export const otpCodeSchema = z
  .string({ error: fieldError('OTP') })
  .regex(/^\d{4,8}$/, { error: 'Please enter a valid OTP' });

export const otpVerifyInputSchema = z.object({
  purpose: otpPurposeSchema,
  code: otpCodeSchema,
  email: emailField().optional(),
  phone: phoneField().optional(),
});
export type OtpVerifyInput = z.input<typeof otpVerifyInputSchema>;

/** For reset_password the token is a reset token; for sensitive_action a verification token. */
export const otpVerifiedSchema = z.object({
  verified: z.literal(true),
  token: z.string().nullable(),
  expires_at: isoDateTimeSchema.nullable(),
});
export const otpVerifyResponseSchema = dataEnvelope(otpVerifiedSchema);

export const verifyPasswordInputSchema = z.object({
  password: z
    .string({ error: fieldError('Password') })
    .min(1, { error: requiredMessage('Password') })
    .max(128),
});
export type VerifyPasswordInput = z.input<typeof verifyPasswordInputSchema>;

/** Short-lived token (minutes) proving the password was just re-entered. */
export const verificationTokenSchema = z.object({
  verification_token: z.string().min(16),
  expires_at: isoDateTimeSchema,
});
export type VerificationToken = z.infer<typeof verificationTokenSchema>;
export const verifyPasswordResponseSchema = dataEnvelope(verificationTokenSchema);

export const switchCompanyInputSchema = z.object({
  transport_company_uuid: uuidRef('Transport company'),
});
export type SwitchCompanyInput = z.input<typeof switchCompanyInputSchema>;
export const switchCompanyResponseSchema = dataEnvelope(
  z.object({ transport_company: transportCompanySchema }),
);
