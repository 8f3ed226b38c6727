import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Input } from '../input';
import { FormField } from './form-field';

const meta = {
  title: 'Forms/FormField',
  component: FormField,
  args: { label: 'License plate number', children: null },
  decorators: [(Story) => <div className="max-w-sm">{Story()}</div>],
  render: (args) => (
    <FormField {...args}>
      <Input defaultValue="A 12345" />
    </FormField>
  ),
} satisfies Meta<typeof FormField>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Basic: Story = {};

export const Optional: Story = {
  args: { label: 'Insurance company', optional: true },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvasElement.querySelector('[data-slot="form-field-optional"]')).toBeVisible();
    // The marker is part of the accessible name.
    await expect(canvas.getByRole('textbox', { name: /Insurance company/ })).toBeVisible();
  },
};

export const WithHint: Story = {
  args: { label: 'National ID', hint: '784-1234-1234567-1' },
  play: async ({ canvasElement }) => {
    const input = within(canvasElement).getByRole('textbox');
    await expect(input).toHaveAccessibleDescription('784-1234-1234567-1');
  },
};

export const WithError: Story = {
  args: {
    hint: 'As printed on the plate',
    error: 'Please enter a valid license plate number',
    required: true,
  },
  play: async ({ canvasElement }) => {
    const input = within(canvasElement).getByRole('textbox');
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await expect(input).toHaveAttribute('aria-required', 'true');
    await expect(input).toHaveAccessibleDescription(
      'As printed on the plate Please enter a valid license plate number',
    );
  },
};
