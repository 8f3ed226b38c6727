import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, userEvent, within } from 'storybook/test';
import { storyMessages } from '../states/story-kit';
import { CompanySwitcher, type Company, type CompanySwitcherProps } from './company-switcher';

const companies: Company[] = [
  { id: 'c1', name: 'Emirates Transport' },
  { id: 'c2', name: 'Al Noor School Buses' },
];

function Switcher(props: CompanySwitcherProps) {
  const [value, setValue] = useState(props.value);
  return (
    <CompanySwitcher
      {...props}
      value={value}
      onValueChange={(id) => {
        setValue(id);
        props.onValueChange(id);
      }}
    />
  );
}

const meta = {
  title: 'Layout/CompanySwitcher',
  component: CompanySwitcher,
  args: { companies, value: 'c1', onValueChange: fn() },
  render: (args) => <Switcher {...args} />,
} satisfies Meta<typeof CompanySwitcher>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Several companies: a native select, events out. */
export const Default: Story = {
  play: async ({ canvasElement, args }) => {
    const kit = storyMessages(canvasElement);
    await userEvent.selectOptions(within(canvasElement).getByLabelText(kit.switchCompany), 'c2');
    await expect(args.onValueChange).toHaveBeenCalledWith('c2');
  },
};

/** One company: its name only (the spec selects it automatically). */
export const SingleCompany: Story = {
  args: { companies: companies.slice(0, 1) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).queryByRole('combobox')).toBeNull();
    await expect(within(canvasElement).getByText('Emirates Transport')).toBeInTheDocument();
  },
};
