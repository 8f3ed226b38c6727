import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, screen, userEvent, within } from 'storybook/test';
import { FormField } from '../form-field';
import { Combobox, type ComboboxProps } from './combobox';

const drivers = [
  { value: 'd1', label: 'Ahmed Al Mansouri', keywords: 'أحمد المنصوري' },
  { value: 'd2', label: 'Fatima Hassan', keywords: 'فاطمة حسن' },
  { value: 'd3', label: 'John Carter' },
  { value: 'd4', label: 'Priya Nair' },
  { value: 'd5', label: 'Omar Khalid', keywords: 'عمر خالد', disabled: true },
];

function Controlled(props: ComboboxProps) {
  const [value, setValue] = useState(props.value ?? null);
  return (
    <FormField label="Assigned driver">
      <Combobox
        {...props}
        value={value}
        onValueChange={(v) => {
          setValue(v);
          props.onValueChange?.(v);
        }}
      />
    </FormField>
  );
}

const meta = {
  title: 'Forms/Combobox',
  component: Combobox,
  args: { options: drivers, onValueChange: fn() },
  decorators: [(Story) => <div className="max-w-xs">{Story()}</div>],
  render: (args) => <Controlled {...args} />,
} satisfies Meta<typeof Combobox>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {};

export const Selected: Story = { args: { value: 'd2' } };

export const SearchAndPick: Story = {
  play: async ({ canvasElement, args }) => {
    const trigger = within(canvasElement).getByRole('button', { name: /Assigned driver/ });
    await userEvent.click(trigger);
    const search = await screen.findByRole('combobox');
    await userEvent.type(search, 'pri');
    await expect(screen.getAllByRole('option')).toHaveLength(1);
    await userEvent.keyboard('{Enter}');
    await expect(args.onValueChange).toHaveBeenCalledWith('d4');
    await expect(trigger).toHaveTextContent('Priya Nair');
  },
};

export const KeyboardAndArabicSearch: Story = {
  play: async ({ canvasElement, args }) => {
    const trigger = within(canvasElement).getByRole('button', { name: /Assigned driver/ });
    await userEvent.click(trigger);
    const search = await screen.findByRole('combobox');
    await userEvent.type(search, 'فاطمة');
    await userEvent.keyboard('{Enter}');
    await expect(args.onValueChange).toHaveBeenCalledWith('d2');
    await userEvent.click(trigger);
    const search2 = await screen.findByRole('combobox');
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    await expect(search2.getAttribute('aria-activedescendant')).toMatch(/option-3$/);
  },
};

export const NoResults: Story = {
  args: { defaultOpen: true },
  play: async () => {
    const search = await screen.findByRole('combobox');
    await userEvent.type(search, 'xyz');
    await expect(screen.queryAllByRole('option')).toHaveLength(0);
  },
};
