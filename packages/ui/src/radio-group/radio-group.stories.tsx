import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { RadioGroup } from './radio-group';

const meta = {
  title: 'Forms/RadioGroup',
  component: RadioGroup,
  args: {
    label: 'Trip type',
    options: [
      { value: 'one-way', label: 'One way' },
      { value: 'round', label: 'Round trip', description: 'Departure and return' },
      { value: 'charter', label: 'Charter', disabled: true },
    ],
    defaultValue: 'one-way',
    onValueChange: fn(),
  },
} satisfies Meta<typeof RadioGroup>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Vertical: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('radiogroup', { name: 'Trip type' })).toBeVisible();
    await userEvent.click(canvas.getByRole('radio', { name: /Round trip/ }));
    await expect(args.onValueChange).toHaveBeenCalledWith('round');
  },
};

export const Horizontal: Story = {
  args: { orientation: 'horizontal' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const first = canvas.getByRole('radio', { name: 'One way' });
    first.focus();
    // ArrowRight moves to the next item in LTR and to the previous one in RTL (Radix + DirectionProvider).
    const rtl = document.documentElement.dir === 'rtl';
    await userEvent.keyboard(rtl ? '{ArrowLeft}' : '{ArrowRight}');
    await expect(canvas.getByRole('radio', { name: /Round trip/ })).toHaveFocus();
  },
};
