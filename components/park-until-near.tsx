// A form far down the page leaves the document while it loads, and comes back a screen and a half
// before the visitor scrolls to it. Chrome's autofill reads every form control at
// DOMContentLoaded, and for each one it forces style and layout of the whole section around it,
// `content-visibility: auto` or not: on the home page that was about a third of the first load's
// style-and-layout time on the bench's phone (issue 53, docs/speed.md).
// Without JavaScript nothing is parked; a page opened at an anchor parks nothing either.

import { LAZY_BLOCK } from '@/components/render-all'

/** Restoring starts further ahead than `content-visibility: auto` renders (50% of a screen). */
const AHEAD = '150% 0px'

declare global {
  interface Window {
    /** Puts a parked island's content back; defined by the first parking script on the page. */
    vigiaUnpark?: (host: Element) => void
  }
}

/**
 * Runs where it stands, right after an island's element (components/near-viewport-island.tsx
 * renders it there, from the client component so that it is not in the RSC payload as well):
 * moves what is inside the island's React boundary markers into a fragment, so React's hydration
 * still finds the markers it skips over. Only islands at least two blocks below the top: a block
 * that may show in the first screen must not draw a frame without its form.
 */
export const PARK_SCRIPT =
  `(function(w,h,c,u){h=h&&h.previousElementSibling;var a=h&&h.firstChild,z=h&&h.lastChild,` +
  `b=h&&h.closest(c),p=b&&b.previousElementSibling,f=new DocumentFragment,o,g=w.vigiaRenderAll;` +
  `if(!p||!p.matches(c)||!a||a.nodeType!=8||a==z||a.nextSibling==z||!g||g.d)return;` +
  `while(a.nextSibling!=z)f.append(a.nextSibling);h._p=f;` +
  `if(!w[u]){w[u]=x=>{x._p&&(x.insertBefore(x._p,x.lastChild),x._p=0)};w[u].l=[];` +
  // The keyboard, an anchor and printing render every block (components/render-all.tsx): the
  // parked forms come back with them, before the browser measures where to scroll.
  `g.h.push(()=>w[u].l.forEach(w[u]))}` +
  `w[u].l.push(h);o=new IntersectionObserver(e=>e.some(x=>x.isIntersecting)&&(o.disconnect(),w[u](h)),` +
  `{rootMargin:'${AHEAD}'});o.observe(b)})` +
  `(window,document.currentScript,'.${LAZY_BLOCK}','vigiaUnpark')`

/** Puts the island's content back if it is parked: before its code hydrates it, or anything. */
export function unpark(host: Element) {
  window.vigiaUnpark?.(host)
}
