import type { DateRange } from '@fleet/core';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import { storyMessages } from '../states/story-kit';
import type { DateRangeValue } from './date-range-logic';
import { DateRangePicker, type DateRangePickerProps } from './date-range-picker';
import { ar } from './messages.ar';
import { en } from './messages.en';

/** 2025-06-15 22:30 in Dubai: stories never read the real clock. */
const now = '2025-06-15T18:30:00Z';

function Controlled(props: DateRangePickerProps) {
  const [value, setValue] = useState<DateRangeValue | null>(props.value);
  const [range, setRange] = useState<DateRange | null>(null);
  return (
    <div className="flex flex-col gap-3">
      <DateRangePicker
        {...props}
        value={value}
        onChange={(v, r) => {
          setValue(v);
          setRange(r);
          props.onChange(v, r);
        }}
      />
      <output data-testid="range" className="text-xs text-foreground-muted">
        <bdi dir="ltr">{range ? `${range.fromApi} – ${range.toApi}` : ''}</bdi>
      </output>
    </div>
  );
}

const meta = {
  title: 'Forms/DateRangePicker',
  component: DateRangePicker,
  args: { value: null, onChange: fn(), timeZone: 'Asia/Dubai', now },
  render: (args) => <Controlled {...args} />,
} satisfies Meta<typeof DateRangePicker>;

export default meta;
type Story = StoryObj<typeof meta>;

function own(el: Element) {
  return el.closest('[lang]')?.getAttribute('lang') === 'ar' ? ar : en;
}

export const QuickRange: Story = {
  play: async ({ canvasElement, args }) => {
    const kit = storyMessages(canvasElement);
    const trigger = within(canvasElement).getByRole('button', { name: new RegExp(kit.dateRange) });
    await userEvent.click(trigger);
    const dialog = await screen.findByRole('dialog', { name: kit.dateRange });
    await userEvent.click(within(dialog).getByRole('button', { name: kit.rangeLast7 }));
    await expect(args.onChange).toHaveBeenCalledWith(
      { from: '2025-06-09', to: '2025-06-15', quick: 'last7Days' },
      expect.objectContaining({ fromApi: '2025-06-09 00:00:00', toApi: '2025-06-15 23:59:59' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await expect(trigger).toHaveTextContent(kit.rangeLast7);
    await expect(trigger).toHaveFocus();
  },
};

export const CustomRangeValidation: Story = {
  args: { presentation: 'inline' },
  play: async ({ canvasElement, args }) => {
    const kit = storyMessages(canvasElement);
    const canvas = within(canvasElement);
    const from = canvas.getByLabelText(kit.dateFrom);
    const to = canvas.getByLabelText(kit.dateTo);
    await userEvent.type(from, '2025-06-20');
    await userEvent.type(to, '2025-06-10');
    await userEvent.click(canvas.getByRole('button', { name: kit.apply }));
    await expect(await canvas.findByText(own(canvasElement).rangeOrder)).toBeVisible();
    await expect(to).toHaveAttribute('aria-invalid', 'true');
    await expect(args.onChange).not.toHaveBeenCalled();

    await userEvent.clear(from);
    await userEvent.type(from, '2025-06-01');
    await userEvent.click(canvas.getByRole('button', { name: kit.apply }));
    await expect(args.onChange).toHaveBeenCalledWith(
      { from: '2025-06-01', to: '2025-06-10', quick: null },
      expect.objectContaining({ fromIso: '2025-06-01T00:00:00+04:00' }),
    );
    await expect(canvas.getByTestId('range')).toHaveTextContent('2025-06-01 00:00:00 – 2025-06-10 23:59:59');
  },
};

export const Inline: Story = {
  args: { presentation: 'inline', value: { from: '2025-06-15', to: '2025-06-15', quick: 'today' } },
  play: async ({ canvasElement }) => {
    const kit = storyMessages(canvasElement);
    await expect(within(canvasElement).getByRole('button', { name: kit.rangeToday })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  },
};

export const CustomValue: Story = { args: { value: { from: '2025-05-01', to: '2025-05-31', quick: null } } };

export const Open: Story = {
  args: { open: true, value: { from: '2025-05-17', to: '2025-06-15', quick: 'last30Days' } },
};

export const Arabic: Story = { globals: { mode: 'light-ar' }, args: { presentation: 'inline' } };
