import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { FormField } from '../form-field';
import { Input } from '../input';
import { useUi } from '../provider';
import { storyMessages } from '../states/story-kit';
import { TwoStepWizard, type TwoStepWizardProps, type WizardStep } from './two-step-wizard';

type FieldDef = { name: string; en: string; ar: string; ltr?: boolean };
type StepDef = { id: string; en: string; ar: string; fields: FieldDef[] };

const vehicleSteps: StepDef[] = [
  {
    id: 'details',
    en: 'Vehicle details',
    ar: 'تفاصيل المركبة',
    fields: [
      { name: 'plate', en: 'License plate number', ar: 'رقم اللوحة', ltr: true },
      { name: 'make', en: 'Make', ar: 'الشركة المصنعة' },
    ],
  },
  {
    id: 'registration',
    en: 'Registration',
    ar: 'التسجيل',
    fields: [
      { name: 'registrationNo', en: 'Registration no', ar: 'رقم التسجيل', ltr: true },
      { name: 'registrationExpiry', en: 'Registration expiry', ar: 'انتهاء التسجيل', ltr: true },
    ],
  },
];

const schoolSteps: StepDef[] = [
  {
    id: 'details',
    en: 'School details',
    ar: 'تفاصيل المدرسة',
    fields: [
      { name: 'name', en: 'Name', ar: 'الاسم' },
      { name: 'phone', en: 'Phone', ar: 'الهاتف', ltr: true },
    ],
  },
  {
    id: 'address',
    en: 'Address',
    ar: 'العنوان',
    fields: [
      { name: 'city', en: 'City', ar: 'المدينة' },
      { name: 'street', en: 'Street', ar: 'الشارع' },
    ],
  },
];

/** A small caller form: holds values, shows its own field errors, validates a step asynchronously. */
function WizardForm({ defs, ...props }: Omit<TwoStepWizardProps, 'steps'> & { defs: StepDef[] }) {
  const { locale } = useUi();
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, boolean>>({});
  const required = locale === 'ar' ? 'هذا الحقل مطلوب' : 'This field is required';
  const steps: WizardStep[] = defs.map((def) => ({
    id: def.id,
    title: def[locale],
    content: (
      <div className="grid gap-4 sm:grid-cols-2">
        {def.fields.map((f) => (
          <FormField key={f.name} label={f[locale]} required error={errors[f.name] ? required : undefined}>
            <Input
              name={f.name}
              dir={f.ltr ? 'ltr' : undefined}
              value={values[f.name] ?? ''}
              onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
            />
          </FormField>
        ))}
      </div>
    ),
    validate: async () => {
      await new Promise((r) => setTimeout(r, 30));
      const next = Object.fromEntries(def.fields.map((f) => [f.name, !values[f.name]?.trim()]));
      setErrors((e) => ({ ...e, ...next }));
      return !Object.values(next).some(Boolean);
    },
  }));
  return <TwoStepWizard {...props} steps={steps} />;
}

const meta = {
  title: 'Layout/TwoStepWizard',
  component: TwoStepWizard,
  args: { steps: [], onSubmit: fn(), onStepChange: fn(), label: 'Add vehicle' },
  argTypes: { steps: { control: false } },
  render: (args) => <WizardForm {...args} defs={vehicleSteps} />,
  decorators: [(Story) => <div className="max-w-2xl">{Story()}</div>],
} satisfies Meta<typeof TwoStepWizard>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Vehicle: Story = {
  play: async ({ canvasElement, args }) => {
    const kit = storyMessages(canvasElement);
    const canvas = within(canvasElement);
    const steps = canvas.getAllByRole('listitem');
    await expect(steps[0]).toHaveAttribute('aria-current', 'step');

    // Next with an empty form: blocked, the form shows its errors.
    await userEvent.click(canvas.getByRole('button', { name: kit.next }));
    await expect(await canvas.findByText(kit.wizardFormError)).toBeVisible();
    await expect(steps[0]).toHaveAttribute('aria-current', 'step');
    await expect(canvasElement.querySelectorAll('[data-slot="form-field-error"]')).toHaveLength(2);
    await expect(args.onStepChange).not.toHaveBeenCalled();

    // Fill step one and advance.
    const inputs = canvasElement.querySelectorAll<HTMLInputElement>(
      '[data-slot="wizard-panel"][data-step="details"] input',
    );
    await userEvent.type(inputs[0]!, 'A 12345');
    await userEvent.type(inputs[1]!, 'Toyota');
    await userEvent.click(canvas.getByRole('button', { name: kit.next }));
    await waitFor(() => expect(steps[1]).toHaveAttribute('aria-current', 'step'));
    await expect(steps[0]).toHaveAttribute('data-state', 'complete');
    await expect(args.onStepChange).toHaveBeenCalledWith(1);

    // Back keeps what was typed.
    await userEvent.click(canvas.getByRole('button', { name: kit.back }));
    await waitFor(() => expect(steps[0]).toHaveAttribute('aria-current', 'step'));
    await expect(inputs[0]).toHaveValue('A 12345');
    await userEvent.click(canvas.getByRole('button', { name: kit.next }));
    await waitFor(() => expect(steps[1]).toHaveAttribute('aria-current', 'step'));

    // Finish validates the last step too.
    await userEvent.click(canvas.getByRole('button', { name: kit.finish }));
    await expect(await canvas.findByText(kit.wizardFormError)).toBeVisible();
    await expect(args.onSubmit).not.toHaveBeenCalled();
    const last = canvasElement.querySelectorAll<HTMLInputElement>(
      '[data-slot="wizard-panel"][data-step="registration"] input',
    );
    await userEvent.type(last[0]!, 'R-998877');
    await userEvent.type(last[1]!, '2026-12-31');
    await userEvent.click(canvas.getByRole('button', { name: kit.finish }));
    await waitFor(() => expect(args.onSubmit).toHaveBeenCalledTimes(1));
  },
};

export const School: Story = {
  args: { label: 'Add school' },
  render: (args) => <WizardForm {...args} defs={schoolSteps} />,
  play: async ({ canvasElement, args }) => {
    const kit = storyMessages(canvasElement);
    const canvas = within(canvasElement);
    const inputs = canvasElement.querySelectorAll<HTMLInputElement>(
      '[data-slot="wizard-panel"][data-step="details"] input',
    );
    await userEvent.type(inputs[0]!, 'Al Noor School');
    // Phone missing: blocked.
    await userEvent.click(canvas.getByRole('button', { name: kit.next }));
    await expect(await canvas.findByText(kit.wizardFormError)).toBeVisible();
    await expect(canvasElement.querySelectorAll('[data-slot="form-field-error"]')).toHaveLength(1);
    await userEvent.type(inputs[1]!, '+971 4 123 4567');
    await userEvent.click(canvas.getByRole('button', { name: kit.next }));
    const heading = await canvas.findByRole('heading', { name: /Address|العنوان/ });
    await waitFor(() => expect(heading).toHaveFocus());
    await expect(args.onStepChange).toHaveBeenCalledWith(1);
  },
};

/** The second step, already reached (checks the completed marker and the Back arrow). */
export const OnSecondStep: Story = { args: { defaultStep: 1 } };

export const Submitting: Story = { args: { defaultStep: 1, submitting: true } };

/** Arabic: the stepper reads right to left and the Next/Back arrows mirror. */
export const Arabic: Story = {
  globals: { mode: 'light-ar' },
  play: async ({ canvasElement }) => {
    const next = canvasElement.querySelector('[data-slot="wizard-next"] [data-slot="icon"]');
    await expect(next).toHaveAttribute('data-icon', 'ArrowEnd');
    await expect(next).toHaveClass('rtl:-scale-x-100');
    await expect(canvasElement.closest('[dir]')).toHaveAttribute('dir', 'rtl');
  },
};
