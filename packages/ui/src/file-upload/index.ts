export { FileUpload } from './file-upload';
export type { FileUploadProps } from './file-upload';
export { checkImageFile, DEFAULT_IMAGE_MAX_MB, type FileCheck } from './file-upload-logic';
