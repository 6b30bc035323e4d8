import { Box, Text } from '@sanity/ui'
import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts'

import {
  describePeriod,
  formatCount,
  formatDate,
  formatShortDate,
  type DayPoint,
  type Period,
} from './period'

// Readable on the Studio's light and dark themes alike (SVG attributes cannot read its CSS vars).
const VISITORS_COLOR = '#2f6fdf'
const LEADS_COLOR = '#d9730d'

/**
 * Visitors and leads per day, each on its own axis (a campaign brings hundreds of visitors and a
 * handful of leads: on one axis the leads would lie flat on zero).
 */
export function PerformanceChart({ period, points }: { period: Period; points: DayPoint[] }) {
  const totalVisitors = points.reduce((sum, point) => sum + point.visitors, 0)
  const totalLeads = points.reduce((sum, point) => sum + point.leads, 0)
  const caption = `Visitantes e leads por dia, ${describePeriod(period)}`
  return (
    <Box as="figure" margin={0}>
      <Text as="figcaption" size={1} weight="medium">
        {caption}
      </Text>
      <Box marginTop={3}>
        <LineChart
          responsive
          style={{ width: '100%', height: 280 }}
          data={points}
          margin={{ top: 8, right: 8, bottom: 8, left: 0 }}
          title={caption}
          desc={`${formatCount(totalVisitors)} visitantes e ${formatCount(totalLeads)} leads no período.`}
        >
          <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.4} />
          <XAxis
            dataKey="date"
            tickFormatter={formatShortDate}
            minTickGap={16}
            tick={{ fontSize: 12 }}
          />
          <YAxis
            yAxisId="visitors"
            allowDecimals={false}
            tickFormatter={formatCount}
            width={48}
            // Each axis in its line's colour: which scale belongs to which line.
            tick={{ fontSize: 12, fill: VISITORS_COLOR }}
          />
          <YAxis
            yAxisId="leads"
            orientation="right"
            allowDecimals={false}
            tickFormatter={formatCount}
            width={36}
            tick={{ fontSize: 12, fill: LEADS_COLOR }}
          />
          <Tooltip
            labelFormatter={(label) => formatDate(String(label))}
            formatter={(value) => formatCount(Number(value))}
          />
          <Legend />
          <Line
            yAxisId="visitors"
            type="monotone"
            dataKey="visitors"
            name="Visitantes"
            stroke={VISITORS_COLOR}
            strokeWidth={2}
            dot={points.length <= 31}
            isAnimationActive={false}
          />
          <Line
            yAxisId="leads"
            type="monotone"
            dataKey="leads"
            name="Leads"
            stroke={LEADS_COLOR}
            strokeWidth={2}
            dot={points.length <= 31}
            isAnimationActive={false}
          />
        </LineChart>
      </Box>
    </Box>
  )
}
