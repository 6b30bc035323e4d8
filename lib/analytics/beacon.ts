// The visit beacon, inlined in every page by app/layout.tsx (docs/analytics.md, "The beacon").
// A few hundred bytes of plain script, no framework, no third party: on a real view (not a
// prerender; prefetches run no script) it POSTs the path and the visit's first touch to
// /api/analytics/view, and again on each client-side navigation (history.pushState, back and
// forward). The first touch is the sessionStorage entry lib/attribution.ts reads (same key, same
// shape); it holds UTM tags and a referrer, no identifier. No cookie, nothing in localStorage.
// The Studio, previews and review links are not counted.

import { BEACON_PATH, FIRST_TOUCH_KEY } from './beacon-constants'

export { BEACON_PATH, FIRST_TOUCH_KEY }

export const BEACON_SCRIPT =
  `(function(){try{var d=document,l=location,w=window,K=${JSON.stringify(FIRST_TOUCH_KEY)},p;` +
  `if(/^\\/(studio|preview|revisao)(\\/|$)/.test(l.pathname))return;` +
  `function t(){var a;try{a=JSON.parse(w.sessionStorage.getItem(K)||'null')}catch(e){}` +
  `if(!a){a={};var q=new URLSearchParams(l.search);` +
  `['utm_source','utm_medium','utm_campaign'].forEach(function(k){var v=(q.get(k)||'').trim();if(v)a[k]=v.slice(0,100)});` +
  `try{var r=new URL(d.referrer);if(r.origin!==l.origin)a.referrer=r.href.slice(0,200)}catch(e){}` +
  `try{w.sessionStorage.setItem(K,JSON.stringify(a))}catch(e){}}return a}` +
  `function v(){var x=l.pathname;if(x===p)return;p=x;var a=t(),h;try{h=new URL(a.referrer).host}catch(e){}` +
  `fetch(${JSON.stringify(BEACON_PATH)},{method:'POST',keepalive:true,credentials:'omit',headers:{'content-type':'application/json'},` +
  `body:JSON.stringify({path:x,referrer:h,utm_source:a.utm_source,utm_medium:a.utm_medium,utm_campaign:a.utm_campaign})}).catch(function(){})}` +
  `var H=history,o=H.pushState;H.pushState=function(){var r=o.apply(this,arguments);v();return r};` +
  `w.addEventListener('popstate',v);` +
  `if(d.prerendering)d.addEventListener('prerenderingchange',v,{once:true});else v()}catch(e){}})()`
