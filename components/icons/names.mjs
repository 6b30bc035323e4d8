// Every icon the site draws, by the id pages use → the lucide-react icon it is drawn from.
// The CMS names (sanity/lib/icon-names.ts) must all be here; tests/unit/icon-sprite.test.ts checks
// it. After a change, run `node scripts/build-icon-sprite.mjs` and commit the sprite.

export const SPRITE_ICONS = {
  // Chosen by editors for cards and markets.
  smartphone: 'smartphone',
  brain: 'brain',
  'shield-check': 'shield-check',
  eye: 'eye',
  activity: 'activity',
  'bell-ring': 'bell-ring',
  'circle-check': 'circle-check',
  camera: 'camera',
  cpu: 'cpu',
  plug: 'plug',
  lock: 'lock',
  chart: 'chart-line',
  'heart-pulse': 'heart-pulse',
  wallet: 'wallet',
  clock: 'clock',
  'file-check': 'file-check',
  truck: 'truck',
  bus: 'bus',
  car: 'car',
  users: 'users',
  'map-pin': 'map-pin',
  coffee: 'coffee',
  // Drawn by the pages themselves.
  'arrow-left': 'arrow-left',
  'arrow-right': 'arrow-right',
  check: 'check',
  download: 'download',
  'loader-circle': 'loader-circle',
  mail: 'mail',
  menu: 'menu',
  'message-circle': 'message-circle',
  phone: 'phone',
  send: 'send',
  x: 'x',
}
