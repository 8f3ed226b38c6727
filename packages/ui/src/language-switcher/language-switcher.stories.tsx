import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, userEvent, within } from 'storybook/test';
import { storyMessages } from '../states/story-kit';
import { LanguageSwitcher, type LanguageSwitcherProps } from './language-switcher';

function Switcher(props: LanguageSwitcherProps) {
  const [value, setValue] = useState(props.value);
  return (
    <LanguageSwitcher
      {...props}
      value={value}
      onValueChange={(lang) => {
        setValue(lang);
        props.onValueChange(lang);
      }}
    />
  );
}

const meta = {
  title: 'Layout/LanguageSwitcher',
  component: LanguageSwitcher,
  args: { value: 'en', onValueChange: fn() },
  render: (args) => <Switcher {...args} />,
} satisfies Meta<typeof LanguageSwitcher>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Each language named in itself; the chosen one is pressed. */
export const Default: Story = {
  play: async ({ canvasElement, args }) => {
    const kit = storyMessages(canvasElement);
    const group = within(canvasElement).getByRole('group', { name: kit.language });
    const arabic = within(group).getByRole('button', { name: 'العربية' });
    await expect(arabic).toHaveAttribute('lang', 'ar');
    await userEvent.click(arabic);
    await expect(args.onValueChange).toHaveBeenCalledWith('ar');
    await expect(arabic).toHaveAttribute('aria-pressed', 'true');
  },
};
