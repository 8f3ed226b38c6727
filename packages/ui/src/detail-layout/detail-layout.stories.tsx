import type { Meta, StoryObj } from '@storybook/react-vite';
import { statusTones } from '@fleet/core';
import { expect, within } from 'storybook/test';
import { Button } from '../button';
import { EditIcon, TrashIcon } from '../icons';
import { useUi } from '../provider';
import {
  DescriptionList,
  DetailLayout,
  DetailSection,
  DetailStatusBadge,
  type DescriptionItem,
} from './detail-layout';

function useVehicle() {
  const ar = useUi().locale === 'ar';
  const details: DescriptionItem[] = [
    { id: 'plate', label: ar ? 'رقم اللوحة' : 'License plate number', value: 'A 12345', ltr: true },
    { id: 'type', label: ar ? 'النوع' : 'Type', value: ar ? 'حافلة' : 'Bus' },
    { id: 'make', label: ar ? 'الشركة المصنعة' : 'Make', value: 'Toyota' },
    { id: 'model', label: ar ? 'الطراز' : 'Model', value: 'Coaster' },
    { id: 'year', label: ar ? 'السنة' : 'Year', value: '2022', ltr: true },
    { id: 'chassis', label: ar ? 'رقم الهيكل' : 'Chassis no', value: 'JTGFB518501234567', ltr: true },
    { id: 'seats', label: ar ? 'عدد المقاعد' : 'Seat capacity', value: '30', ltr: true },
    { id: 'fuel', label: ar ? 'سعة خزان الوقود (لتر)' : 'Fuel tank capacity (litres)', value: null },
  ];
  const registration: DescriptionItem[] = [
    { id: 'regNo', label: ar ? 'رقم التسجيل' : 'Registration no', value: 'R-998877', ltr: true },
    { id: 'regExpiry', label: ar ? 'انتهاء التسجيل' : 'Registration expiry', value: '31/12/2026', ltr: true },
    { id: 'imei', label: ar ? 'رقم IMEI للجهاز' : 'Device IMEI', value: '356938035643809', ltr: true },
    { id: 'insurer', label: ar ? 'شركة التأمين' : 'Insurance company', value: '' },
  ];
  return { ar, details, registration };
}

function VehicleDetail() {
  const { ar, details, registration } = useVehicle();
  return (
    <DetailLayout
      title={<bdi dir="ltr">A 12345</bdi>}
      subtitle={ar ? 'حافلة · تويوتا كوستر' : 'Bus · Toyota Coaster'}
      status={{ label: ar ? 'نشط' : 'Active', tone: 'live' }}
      actions={
        <>
          <Button variant="outline" startIcon={<EditIcon />}>
            {ar ? 'تعديل' : 'Edit'}
          </Button>
          <Button variant="danger" startIcon={<TrashIcon />}>
            {ar ? 'حذف' : 'Delete'}
          </Button>
        </>
      }
    >
      <DetailSection title={ar ? 'تفاصيل المركبة' : 'Vehicle details'}>
        <DescriptionList items={details} columns={3} />
      </DetailSection>
      <DetailSection
        title={ar ? 'التسجيل' : 'Registration'}
        description={ar ? 'التسجيل والتأمين' : 'Registration and insurance'}
      >
        <DescriptionList items={registration} />
      </DetailSection>
    </DetailLayout>
  );
}

const meta = {
  title: 'Layout/DetailLayout',
  component: DetailLayout,
  args: { title: 'A 12345' },
  render: () => <VehicleDetail />,
} satisfies Meta<typeof DetailLayout>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Vehicle: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { level: 1 })).toHaveTextContent('A 12345');
    await expect(canvas.getAllByRole('region')).toHaveLength(2);
    const empty = canvasElement.querySelectorAll('[data-slot="description-item"][data-empty]');
    await expect(empty).toHaveLength(2);
    const imei = canvas.getByText('356938035643809');
    await expect(imei.tagName).toBe('BDI');
    await expect(imei).toHaveAttribute('dir', 'ltr');
    await expect(canvasElement.querySelector('[data-slot="status-badge"]')).toHaveAttribute(
      'data-tone',
      'live',
    );
  },
};

export const Arabic: Story = { globals: { mode: 'light-ar' } };

export const HeaderOnly: Story = {
  render: () => <DetailLayout title="Al Noor School" status={{ label: 'Inactive', tone: 'inactive' }} />,
};

export const StatusTones: Story = {
  render: () => (
    <div className="flex flex-wrap gap-2">
      {statusTones.map((tone) => (
        <DetailStatusBadge key={tone} tone={tone}>
          {tone}
        </DetailStatusBadge>
      ))}
    </div>
  ),
};
