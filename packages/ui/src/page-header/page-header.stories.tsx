import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Button } from '../button';
import { PlusIcon } from '../icons';
import { useUi } from '../provider';
import { PageHeader } from './page-header';

function Header() {
  const ar = useUi().locale === 'ar';
  return (
    <PageHeader
      title={ar ? 'المركبات' : 'Vehicles'}
      description={ar ? 'جميع مركبات الشركة' : 'All vehicles of the company'}
      actions={<Button startIcon={<PlusIcon />}>{ar ? 'إضافة مركبة' : 'Add vehicle'}</Button>}
    />
  );
}

const meta = {
  title: 'Layout/PageHeader',
  component: PageHeader,
  args: { title: '' },
  argTypes: { title: { control: false } },
  render: () => <Header />,
} satisfies Meta<typeof PageHeader>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The page's one h1, its description and the actions at the inline end. */
export const Default: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    await expect(canvas.getByRole('button', { name: /Add vehicle|إضافة مركبة/ })).toBeInTheDocument();
  },
};
