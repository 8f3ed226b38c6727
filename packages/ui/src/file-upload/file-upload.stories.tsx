import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { FormField } from '../form-field';
import { storyText } from '../lib/story-text';
import { FileUpload } from './file-upload';

/** A 1x1 PNG, so previews render offline. */
const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkaPhfDwAEhQJ/lq2dBQAAAABJRU5ErkJggg==';

function fileOf(name: string, type: string, bytes: number) {
  return new File([new Uint8Array(bytes)], name, { type });
}

const meta = {
  title: 'Forms/FileUpload',
  component: FileUpload,
  args: { onChange: fn(), onError: fn() },
  decorators: [(Story) => <div className="max-w-md">{Story()}</div>],
  render: (args) => (
    <FormField label="Profile picture" optional>
      <FileUpload {...args} />
    </FormField>
  ),
} satisfies Meta<typeof FileUpload>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {};

export const WithPreview: Story = { args: { previewUrl: PIXEL, previewAlt: 'Driver photo' } };

export const AcceptsSmallImage: Story = {
  play: async ({ canvasElement, args }) => {
    const input = canvasElement.querySelector('input[type=file]') as HTMLInputElement;
    const file = fileOf('photo.png', 'image/png', 2048);
    await userEvent.upload(input, file);
    await expect(args.onChange).toHaveBeenCalledWith(file);
    await expect(canvasElement.querySelector('[data-slot="file-upload-preview"]')).not.toBeNull();
  },
};

export const RejectsLargeImage: Story = {
  args: { maxSizeMb: 1 },
  play: async ({ canvasElement, args }) => {
    const input = canvasElement.querySelector('input[type=file]') as HTMLInputElement;
    await userEvent.upload(input, fileOf('huge.jpg', 'image/jpeg', 1024 * 1024 + 1));
    const t = storyText();
    const alert = within(canvasElement).getByRole('alert');
    await expect(alert).toHaveTextContent(t.f('fileUploadTooLarge', { size: 1 }));
    await expect(args.onChange).not.toHaveBeenCalled();
    await expect(input).toHaveAttribute('aria-invalid', 'true');
  },
};
