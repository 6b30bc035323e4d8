import { clsx, type ClassValue } from 'clsx'

/**
 * Joins class names. Deliberately without tailwind-merge: it would add ~7 KB gzip to the browser
 * bundle of a page whose whole JS budget is tight. So variants (cva) and the classes callers add
 * must not set the same property twice; wrap an element instead of overriding its display,
 * padding or colour.
 */
export function cn(...inputs: ClassValue[]) {
  return clsx(inputs)
}
