import { cva } from 'class-variance-authority'

import { Icon } from '@/components/icon'
import { Container } from '@/components/ui/section'
import { getAnnouncement } from '@/lib/content'
import { scriptJson } from '@/lib/script-json'

/** The visitor's "closed" choice: the announcement's id and revision, in localStorage (no cookie). */
export const CLOSED_STORAGE_KEY = 'vigia:aviso-fechado'
/** Set on <html> when this announcement was closed; globals.css then hides the bar. */
export const CLOSED_ATTRIBUTE = 'data-aviso-fechado'

const bar = cva(
  // Fixed above the fixed header, with a height set per breakpoint in globals.css
  // (--announcement-height), which also moves the header and the page down by as much: the
  // layout is final in the first frame, whether the bar shows or was closed (no layout shift).
  'announcement-bar fixed inset-x-0 top-0 z-50 h-(--announcement-height) text-sm',
  {
    variants: {
      tone: {
        informativo: 'bg-navy-950 text-white',
        destaque: 'bg-signal-400 text-navy-950',
      },
    },
    defaultVariants: { tone: 'informativo' },
  },
)

/**
 * Runs where it stands, before the bar is parsed or painted: hides the bar (through the <html>
 * attribute) when the visitor closed this announcement, and handles the close button. The whole
 * of the bar's JavaScript: no client component, no chunk, nothing to hydrate.
 */
function inlineScript(key: string): string {
  const k = scriptJson(key)
  return (
    `(function(k,s,a){var d=document.documentElement;` +
    `try{if(localStorage.getItem(s)===k)d.setAttribute(a,'')}catch(e){}` +
    `document.addEventListener('click',function(e){` +
    `var b=e.target&&e.target.closest&&e.target.closest('[data-aviso-fechar]');if(!b)return;` +
    `try{localStorage.setItem(s,k)}catch(e){}d.setAttribute(a,'');` +
    `var n=document.querySelector('header a');if(n)n.focus()})` +
    `})(${k},${JSON.stringify(CLOSED_STORAGE_KEY)},${JSON.stringify(CLOSED_ATTRIBUTE)})`
  )
}

/**
 * The site-wide announcement (Studio: Aviso no topo do site), above the header of every page while
 * it is published and inside its window. The page's cached copy expires when the window starts or
 * ends (lib/content/visibility-cache.ts), so the bar comes and goes by itself; a publish reaches
 * it through the webhook's announcement tag.
 */
export async function AnnouncementBar() {
  // Null outside its window (lib/content), which also has the page expire at its next boundary.
  const announcement = await getAnnouncement()
  if (!announcement?.text) return null
  const { link } = announcement
  return (
    <>
      <script
        dangerouslySetInnerHTML={{
          __html: inlineScript(`${announcement._id}:${announcement._rev}`),
        }}
      />
      <aside id="aviso" aria-label="Aviso" className={bar({ tone: announcement.tone })}>
        <Container className="flex h-full items-center gap-2">
          <p className="line-clamp-2 min-w-0 flex-1 md:line-clamp-1">
            {announcement.text}
            {link?.href && link.label ? (
              <>
                {' '}
                <a
                  href={link.href}
                  className="font-semibold whitespace-nowrap underline underline-offset-2"
                >
                  {link.label}
                </a>
              </>
            ) : null}
          </p>
          <button
            type="button"
            data-aviso-fechar=""
            aria-label="Fechar aviso"
            className="-mr-2 grid size-10 shrink-0 place-items-center rounded-md"
          >
            <Icon name="x" className="size-5" />
          </button>
        </Container>
      </aside>
    </>
  )
}
