import { ATTRIBUTION_KEYS } from '@/lib/attribution-fields'
import type { Attribution } from '@/lib/leads/compose'
import {
  FORM_TOKEN_FIELD,
  HONEYPOT_FIELD,
  LANDING_FIELD,
  ORIGIN_PAGE_FIELD,
  STARTED_AT_FIELD,
  SUBMISSION_KEY_FIELD,
  VARIANT_FIELD,
} from '@/lib/validations/demo-request-fields'

/**
 * What both forms post besides the visitor's fields, read by lib/forms/post.ts: the honeypot,
 * the times of the bot trap, the submission key and the visit's attribution.
 */
export function FormPostFields({
  idPrefix,
  startedAt,
  token,
  submissionKey,
  attribution,
}: {
  idPrefix: string
  startedAt: string
  token?: string
  submissionKey: string
  attribution: Attribution
}) {
  return (
    <>
      {/* Honeypot: invisible to people and to assistive technology, tempting to bots. */}
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label htmlFor={`${idPrefix}-website`}>Site</label>
        <input
          id={`${idPrefix}-website`}
          name={HONEYPOT_FIELD}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          defaultValue=""
        />
      </div>
      <input type="hidden" name={STARTED_AT_FIELD} value={startedAt} />
      {token ? <input type="hidden" name={FORM_TOKEN_FIELD} value={token} /> : null}
      <input type="hidden" name={SUBMISSION_KEY_FIELD} value={submissionKey} />
      {ATTRIBUTION_KEYS.map((key) =>
        attribution[key] ? (
          <input key={key} type="hidden" name={key} value={attribution[key]} />
        ) : null,
      )}
      {attribution.page ? (
        <input type="hidden" name={ORIGIN_PAGE_FIELD} value={attribution.page} />
      ) : null}
      {attribution.landing ? (
        <input type="hidden" name={LANDING_FIELD} value={attribution.landing} />
      ) : null}
      {attribution.variant ? (
        <input type="hidden" name={VARIANT_FIELD} value={attribution.variant} />
      ) : null}
    </>
  )
}
