import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import { FormField } from '../form-field';
import { storyLocale } from '../states/story-kit';
import { DateField, type DateFieldProps } from './date-field';
import { ar } from './messages.ar';
import { en } from './messages.en';

/** A field that keeps its own value, so a story can choose a day and see it shown. */
function Controlled(props: DateFieldProps) {
  const [value, setValue] = useState(props.value);
  return (
    <div className="w-72">
      <FormField label={storyLabel}>
        <DateField
          {...props}
          value={value}
          onChange={(v) => {
            setValue(v);
            props.onChange(v);
          }}
        />
      </FormField>
    </div>
  );
}

// The label is the same in both modes on purpose: the stories check the field's own words.
const storyLabel = 'From / من';

const meta = {
  title: 'Forms/DateField',
  component: DateField,
  args: { value: '2026-11-27', max: '2026-11-27', today: '2026-11-27', onChange: fn() },
  render: (args) => <Controlled {...args} />,
} satisfies Meta<typeof DateField>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Arabic-Indic digits (U+0660-U+0669, U+06F0-U+06F9): the product writes Arabic with Latin digits. */
const easternDigits = /[\u0660-\u0669\u06F0-\u06F9]/;

export const Default: Story = {
  play: async ({ canvasElement }) => {
    const arabic = storyLocale(canvasElement) === 'ar';
    const field = within(canvasElement).getByRole('button', { name: storyLabel });
    // The day in the page's language: the month's name in Arabic or English, the digits Latin.
    // Exactly the day: the field's text is nothing else (its description sits outside the button).
    await expect(field.textContent).toBe(arabic ? '27 نوفمبر 2026' : 'November 27, 2026');
    await expect(field).toHaveAccessibleDescription(
      (arabic ? ar : en).selectedDate.replace('{date}', arabic ? '27 نوفمبر 2026' : 'November 27, 2026'),
    );
  },
};

export const Empty: Story = {
  args: { value: '' },
  play: async ({ canvasElement }) => {
    const text = storyLocale(canvasElement) === 'ar' ? ar : en;
    await expect(within(canvasElement).getByRole('button', { name: storyLabel })).toHaveTextContent(
      text.chooseDate,
    );
  },
};

/** Keyboard only: open, step back one day in the reading direction, choose with Enter. */
export const KeyboardPick: Story = {
  play: async ({ canvasElement, args }) => {
    const arabic = storyLocale(canvasElement) === 'ar';
    const text = arabic ? ar : en;
    const field = within(canvasElement).getByRole('button', { name: storyLabel });
    field.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: text.calendar });
    const grid = within(dialog).getByRole('grid');
    await expect(grid).toHaveAccessibleName(arabic ? 'نوفمبر 2026' : 'November 2026');
    // Focus starts on the chosen day.
    await waitFor(() => expect(document.activeElement).toHaveAttribute('data-day', '2026-11-27'));
    // The day after is past `max`: the forward arrow stays put.
    await userEvent.keyboard(arabic ? '{ArrowLeft}' : '{ArrowRight}');
    await expect(document.activeElement).toHaveAttribute('data-day', '2026-11-27');
    await expect(within(dialog).getByRole('button', { name: /28/ })).toBeDisabled();
    // Backward in the reading direction: ArrowRight in Arabic, ArrowLeft in English.
    await userEvent.keyboard(arabic ? '{ArrowRight}' : '{ArrowLeft}');
    await expect(document.activeElement).toHaveAttribute('data-day', '2026-11-26');
    await userEvent.keyboard('{ArrowUp}');
    await expect(document.activeElement).toHaveAttribute('data-day', '2026-11-19');
    await userEvent.keyboard('{Enter}');
    await expect(args.onChange).toHaveBeenCalledWith('2026-11-19');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await expect(field).toHaveFocus();
    await expect(field).toHaveTextContent(arabic ? '19 نوفمبر 2026' : 'November 19, 2026');
  },
};

/** PageUp goes back a month (the heading follows); the month buttons stop at `min`. */
export const MonthPaging: Story = {
  args: { min: '2026-10-01' },
  play: async ({ canvasElement, args }) => {
    const arabic = storyLocale(canvasElement) === 'ar';
    const text = arabic ? ar : en;
    await userEvent.click(within(canvasElement).getByRole('button', { name: storyLabel }));
    const dialog = await screen.findByRole('dialog', { name: text.calendar });
    await waitFor(() => expect(document.activeElement).toHaveAttribute('data-day', '2026-11-27'));
    await userEvent.keyboard('{PageUp}');
    await expect(within(dialog).getByRole('grid')).toHaveAccessibleName(
      arabic ? 'أكتوبر 2026' : 'October 2026',
    );
    await expect(document.activeElement).toHaveAttribute('data-day', '2026-10-27');
    await expect(within(dialog).getByRole('button', { name: text.previousMonth })).toBeDisabled();
    await expect(within(dialog).getByRole('button', { name: text.nextMonth })).toBeEnabled();
    await userEvent.click(within(dialog).getByRole('button', { name: text.nextMonth }));
    await expect(within(dialog).getByRole('grid')).toHaveAccessibleName(
      arabic ? 'نوفمبر 2026' : 'November 2026',
    );
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await expect(args.onChange).not.toHaveBeenCalled();
  },
};

/** The calendar open, for the screenshot of each mode. */
export const Open: Story = {
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: storyLabel }));
    await screen.findByRole('grid');
  },
};

/**
 * Arabic: the month, weekday and day names are Arabic, the week starts on Saturday, and every digit
 * in the field and the calendar is Latin, like the rest of the portal's Arabic (core `intlLocale`).
 */
export const Arabic: Story = {
  globals: { mode: 'light-ar' },
  play: async ({ canvasElement }) => {
    const field = within(canvasElement).getByRole('button', { name: storyLabel });
    await expect(field).toHaveTextContent('27 نوفمبر 2026');
    await userEvent.click(field);
    const dialog = await screen.findByRole('dialog', { name: ar.calendar });
    await expect(dialog.textContent).not.toMatch(easternDigits);
    await expect(field.textContent).not.toMatch(easternDigits);
    const headers = within(dialog).getAllByRole('columnheader');
    await expect(headers[0]).toHaveAttribute('abbr', 'السبت');
    await expect(within(dialog).getByRole('button', { name: 'الجمعة، 27 نوفمبر 2026' })).toHaveAttribute(
      'tabindex',
      '0',
    );
  },
};
