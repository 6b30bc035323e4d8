// A form far down the page leaves the document while it loads, and comes back a screen and a half
// before the visitor scrolls to it. Chrome's autofill reads every form control at
// DOMContentLoaded, and for each one it forces style and layout of the whole section around it,
// `content-visibility: auto` or not: on the home page that was about a third of the first load's
// style-and-layout time on the bench's phone (issue 53, docs/speed.md "Forms parked until near").
// Without JavaScript nothing is parked; a page opened at an anchor parks nothing either.

/** The class of the blocks that render when near the viewport (app/globals.css). */
const LAZY_BLOCK = 'render-when-visible'
/** Restoring starts further ahead than `content-visibility: auto` renders (50% of a screen). */
const AHEAD = '150% 0px'

declare global {
  interface Window {
    /** Puts a parked island's content back; defined by the first parking script on the page. */
    vigiaUnpark?: (host: Element) => void
  }
}

/**
 * Runs where it stands, right after an island (components/near-viewport-island.tsx): moves what is
 * inside the island's React boundary markers into a fragment, so React's hydration still finds
 * the markers it skips over. Only islands at least two blocks below the top: a block that may
 * show in the first screen must not draw a frame without its form.
 */
export const PARK_SCRIPT =
  `(function(w,d,s){` +
  `var h=s&&s.previousElementSibling,a=h&&h.firstChild,z=h&&h.lastChild;` +
  `if(!a||a.nodeType!==8||!z||z.nodeType!==8||a===z||a.nextSibling===z||location.hash)return;` +
  `var b=h.closest('.${LAZY_BLOCK}'),p=b&&b.previousElementSibling;` +
  `if(!p||!p.classList.contains('${LAZY_BLOCK}'))return;` +
  `var f=d.createDocumentFragment();while(a.nextSibling!==z)f.appendChild(a.nextSibling);` +
  `h.vigiaParked=f;var all=w.vigiaParkedHosts||(w.vigiaParkedHosts=[]);all.push(h);` +
  `if(!w.vigiaUnpark){` +
  `w.vigiaUnpark=function(x){if(x.vigiaParked){x.insertBefore(x.vigiaParked,x.lastChild);x.vigiaParked=null}};` +
  `var every=function(){all.forEach(w.vigiaUnpark)};` +
  // The keyboard, an anchor and printing reach any block (app/globals.css renders them all); a
  // link to an anchor restores before the browser measures where to scroll.
  `w.addEventListener('hashchange',every);w.addEventListener('beforeprint',every);` +
  `d.addEventListener('keydown',function(e){if(e.key==='Tab')every()},true);` +
  `d.addEventListener('click',function(e){var t=e.target;if(t&&t.closest&&t.closest('a[href*="#"]'))every()},true)}` +
  `var o=new IntersectionObserver(function(es){if(es.some(function(e){return e.isIntersecting})){o.disconnect();w.vigiaUnpark(h)}},{rootMargin:'${AHEAD}'});` +
  `o.observe(b)` +
  `})(window,document,document.currentScript)`

/** The parking script, to render right after an island's element. */
export function ParkUntilNear() {
  return <script dangerouslySetInnerHTML={{ __html: PARK_SCRIPT }} />
}

/** Puts the island's content back if it is parked: before its code hydrates it, or anything. */
export function unpark(host: Element) {
  window.vigiaUnpark?.(host)
}
