import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { useUi } from '../provider';
import { storyMessages } from '../states/story-kit';
import { Breadcrumbs } from './breadcrumbs';

function Trail() {
  const ar = useUi().locale === 'ar';
  return (
    <Breadcrumbs
      items={[
        { label: ar ? 'لوحة التحكم' : 'Dashboard', href: '#dashboard' },
        { label: ar ? 'المركبات' : 'Vehicles', href: '#vehicles' },
        { label: <bdi dir="ltr">A 12345</bdi> },
      ]}
      onNavigate={(_item, event) => event.preventDefault()}
    />
  );
}

const meta = {
  title: 'Layout/Breadcrumbs',
  component: Breadcrumbs,
  args: { items: [] },
  argTypes: { items: { control: false } },
  render: () => <Trail />,
} satisfies Meta<typeof Breadcrumbs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The last item is the current page, not a link; chevrons point the reading way. */
export const Default: Story = {
  play: async ({ canvasElement }) => {
    const kit = storyMessages(canvasElement);
    const nav = within(canvasElement).getByRole('navigation', { name: kit.breadcrumbs });
    await expect(within(nav).getAllByRole('link')).toHaveLength(2);
    await expect(within(nav).getByText('A 12345').closest('[aria-current]')).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(canvasElement.querySelector('[data-slot="breadcrumb-separator"]')).toHaveClass(
      'rtl:-scale-x-100',
    );
  },
};
