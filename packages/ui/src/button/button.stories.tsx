import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { ArrowEndIcon, PlusIcon, TrashIcon } from '../icons';
import { Button, buttonSizes, buttonVariants } from './button';
import { IconButton } from './icon-button';
import { Link } from './link';

const meta = {
  title: 'Actions/Button',
  component: Button,
  args: { children: 'Save vehicle', onClick: fn() },
  argTypes: {
    variant: { control: 'inline-radio', options: buttonVariants },
    size: { control: 'inline-radio', options: buttonSizes },
  },
} satisfies Meta<typeof Button>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Primary: Story = {
  play: async ({ canvasElement, args }) => {
    const button = within(canvasElement).getByRole('button', { name: 'Save vehicle' });
    await userEvent.click(button);
    await expect(args.onClick).toHaveBeenCalledTimes(1);
    await expect(button).toHaveAttribute('data-variant', 'primary');
  },
};

export const Variants: Story = {
  render: (args) => (
    <div className="flex flex-col gap-3">
      {buttonSizes.map((size) => (
        <div key={size} className="flex flex-wrap items-center gap-3">
          {buttonVariants.map((variant) => (
            <Button key={variant} {...args} variant={variant} size={size}>
              {variant} {size}
            </Button>
          ))}
        </div>
      ))}
    </div>
  ),
};

export const WithIcons: Story = {
  args: { startIcon: <PlusIcon />, endIcon: <ArrowEndIcon />, children: 'Add vehicle' },
};

export const Loading: Story = {
  args: { loading: true },
  play: async ({ canvasElement, args }) => {
    const button = within(canvasElement).getByRole('button');
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute('aria-busy', 'true');
    await userEvent.click(button, { pointerEventsCheck: 0 });
    await expect(args.onClick).not.toHaveBeenCalled();
  },
};

export const Disabled: Story = { args: { disabled: true } };

export const IconButtons: Story = {
  render: () => (
    <div className="flex items-center gap-3">
      <IconButton label="Add" icon={<PlusIcon />} variant="primary" />
      <IconButton label="Delete" icon={<TrashIcon />} variant="danger" size="sm" />
      <IconButton label="Delete" icon={<TrashIcon />} variant="outline" size="lg" />
      <IconButton label="Delete" icon={<TrashIcon />} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: 'Add' })).toBeVisible();
  },
};

export const Links: Story = {
  render: () => (
    <div className="flex items-center gap-6">
      <Link href="#vehicles">Vehicles</Link>
      <Link href="#muted" variant="muted">
        Muted link
      </Link>
      <Link href="https://maps.example.com" external>
        Open in maps
      </Link>
    </div>
  ),
  play: async ({ canvasElement }) => {
    const external = within(canvasElement).getByRole('link', { name: 'Open in maps' });
    await expect(external).toHaveAttribute('target', '_blank');
    await expect(external).toHaveAttribute('rel', 'noopener noreferrer');
  },
};
