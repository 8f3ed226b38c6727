import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { storyMessages } from '../states/story-kit';
import { NotFound } from './not-found';

const meta = {
  title: 'Pages/NotFound',
  component: NotFound,
  args: {
    homeHref: '/dashboard',
    onHome: fn((event: React.MouseEvent<HTMLAnchorElement>) => event.preventDefault()),
  },
} satisfies Meta<typeof NotFound>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvasElement, args }) => {
    const kit = storyMessages(canvasElement);
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { level: 1 })).toHaveTextContent(kit.notFoundTitle);
    const link = canvas.getByRole('link', { name: kit.notFoundAction });
    await expect(link).toHaveAttribute('href', '/dashboard');
    await userEvent.click(link);
    await expect(args.onHome).toHaveBeenCalled();
  },
};

export const Arabic: Story = { globals: { mode: 'light-ar' } };

export const CustomLabels: Story = {
  args: {
    labels: { notFoundTitle: 'Vehicle not found', notFoundAction: 'Back to vehicles' },
    homeHref: '/dashboard/vehicles',
  },
};
