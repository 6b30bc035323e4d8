// The answer of GET /api/analytics as the Studio reads it (issue 36, item 6). Checked with zod so
// an unexpected answer becomes a clear message rather than a broken table.

import { z } from 'zod'

export const REPORT_DIMENSIONS = ['page', 'campaign', 'source', 'day'] as const

export type ReportDimension = (typeof REPORT_DIMENSIONS)[number]

export const reportRowSchema = z.object({
  key: z.string(),
  visits: z.number().int().nonnegative(),
  visitors: z.number().int().nonnegative(),
  leads: z.number().int().nonnegative(),
  conversion: z.number().min(0).max(1),
})

export const reportSchema = z.object({
  from: z.string(),
  to: z.string(),
  by: z.enum(REPORT_DIMENSIONS),
  rows: z.array(reportRowSchema),
})

export type ReportRow = z.infer<typeof reportRowSchema>

export type Report = z.infer<typeof reportSchema>
