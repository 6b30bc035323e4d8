// The icons an editor may pick for a card. The page maps each name to a lucide icon on the
// server, so adding a name here also needs an entry in components/icon.tsx.
export const ICON_NAMES = [
  'smartphone',
  'brain',
  'shield-check',
  'eye',
  'activity',
  'bell-ring',
  'circle-check',
  'camera',
  'cpu',
  'plug',
  'lock',
  'chart',
  'heart-pulse',
  'wallet',
  'clock',
  'file-check',
  'truck',
  'bus',
  'car',
  'users',
  'map-pin',
  'coffee',
] as const

export type IconName = (typeof ICON_NAMES)[number]
