import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/** Joins class names and lets later Tailwind utilities win; the caller's className goes last. */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
