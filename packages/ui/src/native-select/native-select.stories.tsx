import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { FormField } from '../form-field';
import { controlSizes } from '../input';
import { NativeSelect } from './native-select';

const types = [
  { value: 'bus', label: 'Bus' },
  { value: 'car', label: 'Car' },
  { value: 'truck', label: 'Truck' },
];

const change = fn();
const meta = {
  title: 'Forms/NativeSelect',
  component: NativeSelect,
  args: { options: types, defaultValue: 'car', 'aria-label': 'Vehicle type', onChange: change },
} satisfies Meta<typeof NativeSelect>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Choosing with the keyboard or pointer fires the native change event. */
export const Default: Story = {
  play: async ({ canvasElement }) => {
    const select = within(canvasElement).getByRole('combobox', { name: 'Vehicle type' });
    await expect(select).toHaveValue('car');
    await userEvent.selectOptions(select, 'truck');
    await expect(select).toHaveValue('truck');
    await expect(change).toHaveBeenCalled();
  },
};

/** In a FormField: labelled by the field, described by its error, marked invalid. */
export const InFormField: Story = {
  render: (args) => (
    <FormField label="Vehicle type" error="Please select a vehicle type">
      <NativeSelect options={args.options} placeholder="—" defaultValue="" />
    </FormField>
  ),
  play: async ({ canvasElement }) => {
    const select = within(canvasElement).getByRole('combobox', { name: 'Vehicle type' });
    await expect(select).toHaveAttribute('aria-invalid', 'true');
    await expect(select).toHaveAccessibleDescription('Please select a vehicle type');
    await expect(select).toHaveValue('');
  },
};

export const Sizes: Story = {
  render: (args) => (
    <div className="flex flex-col gap-3">
      {controlSizes.map((size) => (
        <NativeSelect key={size} size={size} options={args.options} aria-label={`size ${size}`} />
      ))}
    </div>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getAllByRole('combobox')).toHaveLength(controlSizes.length);
  },
};

export const Disabled: Story = {
  args: { disabled: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('combobox')).toBeDisabled();
  },
};
