/**
 * Characters that show nothing but that software still reads: Unicode format characters
 * (category Cf: zero-width spaces and joiners, bidirectional overrides, the byte-order mark, the
 * tag characters U+E0001 and U+E0020–E007F that can spell hidden text for an AI), the rest of the
 * tag block, variation selectors (U+FE00–FE0F, U+E0100–E01EF, Mongolian U+180B–180F), the
 * combining grapheme joiner and the Hangul fillers used as "blank" names. The one list for
 * visitor text: leads (lib/leads/compose.ts) and visit counts (lib/analytics/collect.ts).
 * Global: for replace and match only (test() would keep a lastIndex between calls).
 */
export const INVISIBLE =
  /[\p{Cf}\u{E0000}-\u{E007F}\uFE00-\uFE0F\u{E0100}-\u{E01EF}\u180B-\u180F\u034F\u115F\u1160\u3164\uFFA0]/gu
