import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { FormField } from '../form-field';
import { Textarea } from './textarea';

const meta = {
  title: 'Forms/Textarea',
  component: Textarea,
  decorators: [(Story) => <div className="max-w-md">{Story()}</div>],
  render: (args) => (
    <FormField label="Notes" optional>
      <Textarea {...args} />
    </FormField>
  ),
} satisfies Meta<typeof Textarea>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvasElement }) => {
    const area = within(canvasElement).getByRole('textbox');
    await userEvent.type(area, 'Wheelchair ramp on the rear door');
    await expect(area).toHaveValue('Wheelchair ramp on the rear door');
  },
};

export const Invalid: Story = {
  render: (args) => (
    <FormField label="Description" error="Description is required">
      <Textarea {...args} />
    </FormField>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('textbox')).toHaveAttribute('aria-invalid', 'true');
  },
};
