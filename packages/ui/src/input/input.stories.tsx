import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { FormField } from '../form-field';
import { Input, controlSizes, inputKinds } from './input';

const meta = {
  title: 'Forms/Input',
  component: Input,
  args: { kind: 'text', placeholder: 'Type here' },
  argTypes: {
    kind: { control: 'select', options: inputKinds },
    size: { control: 'inline-radio', options: controlSizes },
  },
  decorators: [(Story) => <div className="max-w-sm">{Story()}</div>],
  render: (args) => (
    <FormField label="Value">
      <Input {...args} />
    </FormField>
  ),
} satisfies Meta<typeof Input>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Text: Story = {
  play: async ({ canvasElement }) => {
    const input = within(canvasElement).getByLabelText('Value');
    await userEvent.type(input, 'Fleet 7');
    await expect(input).toHaveValue('Fleet 7');
  },
};

export const Password: Story = {
  args: { kind: 'password', defaultValue: 'secret-42', placeholder: undefined },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const input = canvas.getByLabelText('Value');
    await expect(input).toHaveAttribute('type', 'password');
    const toggle = canvas.getByRole('button', { name: /show password|إظهار كلمة المرور/i });
    await userEvent.click(toggle);
    await expect(input).toHaveAttribute('type', 'text');
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(toggle);
    await expect(input).toHaveAttribute('type', 'password');
  },
};

export const AllKinds: Story = {
  render: () => (
    <div className="grid gap-4">
      <FormField label="Name">
        <Input kind="text" defaultValue="Ahmed" />
      </FormField>
      <FormField label="Password">
        <Input kind="password" defaultValue="secret" />
      </FormField>
      <FormField label="Seat capacity">
        <Input kind="number" defaultValue={42} />
      </FormField>
      <FormField label="Phone" hint="International format">
        <Input kind="phone" defaultValue="+971 50 123 4567" />
      </FormField>
      <FormField label="Registration expiry">
        <Input kind="date" defaultValue="2027-03-31" />
      </FormField>
      <FormField label="Opening time">
        <Input kind="time" defaultValue="07:30" />
      </FormField>
    </div>
  ),
  play: async ({ canvasElement }) => {
    const phone = within(canvasElement).getByLabelText('Phone');
    await expect(phone).toHaveAttribute('type', 'tel');
    await expect(phone).toHaveAttribute('dir', 'ltr');
  },
};

export const Sizes: Story = {
  render: () => (
    <div className="grid gap-3">
      {controlSizes.map((size) => (
        <Input key={size} size={size} aria-label={`Size ${size}`} placeholder={`Size ${size}`} />
      ))}
    </div>
  ),
};

export const Disabled: Story = { args: { disabled: true, defaultValue: 'Read only' } };
