import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { Button, focusRing } from '../button';
import { useFieldControlProps } from '../form-field';
import { UploadIcon } from '../icons';
import { format, type UiMessages } from '../i18n';
import { cn } from '../lib/cn';
import { useLabels } from '../provider';
import { DEFAULT_IMAGE_MAX_MB, checkImageFile } from './file-upload-logic';

type Labels = Partial<
  Pick<
    UiMessages,
    | 'fileUploadPrompt'
    | 'fileUploadHint'
    | 'fileUploadTooLarge'
    | 'fileUploadWrongType'
    | 'fileUploadRemove'
    | 'fileUploadChange'
  >
>;

export interface FileUploadProps {
  /** Called with the accepted file, or null when removed. Rejected files never reach it. */
  onChange?: (file: File | null) => void;
  /** Called with the error text when a file is rejected. */
  onError?: (message: string) => void;
  /** Size limit in MB (files must be strictly below it). Default 5 (@fleet/core). */
  maxSizeMb?: number;
  /** Existing image (e.g. a stored profile picture) shown until replaced. */
  previewUrl?: string | null;
  /** Alt text of the preview image. */
  previewAlt?: string;
  accept?: string;
  disabled?: boolean;
  id?: string;
  name?: string;
  className?: string;
  labels?: Labels;
}

/**
 * Image picker with drop zone, preview, remove and a clear size/type error (announced, and wired
 * to the input with aria-describedby). Works inside FormField.
 */
export function FileUpload({
  onChange,
  onError,
  maxSizeMb = DEFAULT_IMAGE_MAX_MB,
  previewUrl = null,
  previewAlt = '',
  accept = 'image/png,image/jpeg,image/webp,image/gif',
  disabled,
  id,
  name,
  className,
  labels,
}: FileUploadProps) {
  const text = useLabels(
    [
      'fileUploadPrompt',
      'fileUploadHint',
      'fileUploadTooLarge',
      'fileUploadWrongType',
      'fileUploadRemove',
      'fileUploadChange',
    ],
    labels,
  );
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<string | null>(previewUrl);
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const objectUrl = useRef<string | null>(null);
  const errorId = useId();
  const hintId = useId();
  const field = useFieldControlProps({ id, invalid: Boolean(error) });

  useEffect(
    () => () => {
      if (objectUrl.current) URL.revokeObjectURL(objectUrl.current);
    },
    [],
  );

  function accept_(file: File | undefined) {
    if (!file) return;
    const check = checkImageFile(file, maxSizeMb);
    if (!check.ok) {
      const message =
        check.reason === 'size'
          ? format(text.fileUploadTooLarge, { size: maxSizeMb })
          : text.fileUploadWrongType;
      setError(message);
      onError?.(message);
      if (inputRef.current) inputRef.current.value = '';
      return;
    }
    setError(null);
    if (objectUrl.current) URL.revokeObjectURL(objectUrl.current);
    objectUrl.current = URL.createObjectURL(file);
    setPreview(objectUrl.current);
    onChange?.(file);
  }

  function remove() {
    if (objectUrl.current) URL.revokeObjectURL(objectUrl.current);
    objectUrl.current = null;
    setPreview(null);
    setError(null);
    if (inputRef.current) inputRef.current.value = '';
    onChange?.(null);
  }

  function onDrop(event: DragEvent<HTMLLabelElement>) {
    event.preventDefault();
    setDragging(false);
    if (!disabled) accept_(event.dataTransfer.files[0]);
  }

  const describedBy = [field['aria-describedby'], hintId, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div
      data-slot="file-upload"
      data-invalid={error ? '' : undefined}
      className={cn('flex flex-col gap-2', className)}
    >
      <div className="flex items-center gap-4">
        {preview ? (
          <img
            data-slot="file-upload-preview"
            src={preview}
            alt={previewAlt}
            className="size-20 shrink-0 rounded-lg border border-border object-cover"
          />
        ) : null}
        <label
          htmlFor={field.id}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-dragging={dragging ? '' : undefined}
          className={cn(
            'flex min-h-20 flex-1 cursor-pointer flex-col items-center justify-center gap-1 rounded-lg border-2 border-dashed border-border-strong bg-surface-sunken px-4 py-3 text-center',
            'has-focus-visible:outline-2 has-focus-visible:outline-focus-ring data-dragging:border-primary data-dragging:bg-primary-soft',
            error && 'border-danger',
            disabled && 'cursor-not-allowed opacity-50',
          )}
        >
          <UploadIcon size={20} className="text-foreground-muted" />
          <span className="text-sm font-medium text-foreground">
            {preview ? text.fileUploadChange : text.fileUploadPrompt}
          </span>
          <span id={hintId} className="text-xs text-foreground-muted">
            {format(text.fileUploadHint, { size: maxSizeMb })}
          </span>
          <input
            ref={inputRef}
            id={field.id}
            name={name}
            type="file"
            accept={accept}
            disabled={disabled}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy || undefined}
            onChange={(e) => accept_(e.target.files?.[0])}
            className={cn('sr-only', focusRing)}
          />
        </label>
      </div>
      {preview ? (
        <Button variant="ghost" size="sm" className="self-start" onClick={remove} disabled={disabled}>
          {text.fileUploadRemove}
        </Button>
      ) : null}
      {error ? (
        <p
          id={errorId}
          role="alert"
          data-slot="file-upload-error"
          className="text-xs font-medium text-danger"
        >
          {error}
        </p>
      ) : null}
    </div>
  );
}
