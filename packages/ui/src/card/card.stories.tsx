import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { Button } from '../button';
import { Card, CardHeader, cardPaddings } from './card';

const meta = {
  title: 'Layout/Card',
  component: Card,
  args: { children: 'Vehicles report every 30 seconds while the engine is on.' },
} satisfies Meta<typeof Card>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvasElement }) => {
    const card = canvasElement.querySelector('[data-slot="card"]');
    await expect(card).toHaveAttribute('data-size', 'md');
    await expect(card).toHaveTextContent('Vehicles report every 30 seconds');
  },
};

const edit = fn();
/** With a header: title, description and an action at the inline end (the start in Arabic). */
export const WithHeader: Story = {
  render: () => (
    <Card>
      <CardHeader
        title="Demo Transport"
        description="12 vehicles, 3 branches"
        actions={
          <Button size="sm" variant="outline" onClick={edit}>
            Edit
          </Button>
        }
      />
      <p className="text-sm">Company details go here.</p>
    </Card>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { level: 2, name: 'Demo Transport' })).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Edit' }));
    await expect(edit).toHaveBeenCalledTimes(1);
  },
};

export const Paddings: Story = {
  render: () => (
    <div className="grid gap-4 sm:grid-cols-3">
      {cardPaddings.map((padding) => (
        <Card key={padding} padding={padding}>
          padding {padding}
        </Card>
      ))}
    </div>
  ),
  play: async ({ canvasElement }) => {
    const sizes = [...canvasElement.querySelectorAll('[data-slot="card"]')].map((c) =>
      c.getAttribute('data-size'),
    );
    await expect(sizes).toEqual([...cardPaddings]);
  },
};
