// next-env.d.ts (git-ignored, written by `next build`) declares static image imports; this
// declares them for a fresh clone's `npm run typecheck` too.
/// <reference types="next/image-types/global" />
