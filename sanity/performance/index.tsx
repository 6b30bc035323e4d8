// The Studio's Desempenho tool and tab (issue 36). Both load their code (the chart library
// included) only when opened, so the rest of the Studio does not wait for it; none of it is ever
// imported by the public site.

import { ChartUpwardIcon } from '@sanity/icons'
import { Flex, Spinner } from '@sanity/ui'
import { lazy, Suspense, type ComponentProps } from 'react'
import { definePlugin } from 'sanity'
import type { StructureBuilder, UserViewComponent } from 'sanity/structure'

const LazyTool = lazy(() =>
  import('./performance-tool').then((module) => ({ default: module.PerformanceTool })),
)
const LazyView = lazy(() =>
  import('./performance-tool').then((module) => ({ default: module.PerformanceView })),
)

function Loading() {
  return (
    <Flex align="center" justify="center" padding={5}>
      <Spinner muted />
    </Flex>
  )
}

function PerformanceToolEntry() {
  return (
    <Suspense fallback={<Loading />}>
      <LazyTool />
    </Suspense>
  )
}

function PerformanceViewEntry(props: ComponentProps<UserViewComponent>) {
  return (
    <Suspense fallback={<Loading />}>
      <LazyView {...props} />
    </Suspense>
  )
}

export const PERFORMANCE_TOOL_NAME = 'desempenho'

export const performanceTool = definePlugin({
  name: 'vigia-performance',
  tools: [
    {
      name: PERFORMANCE_TOOL_NAME,
      title: 'Desempenho',
      icon: ChartUpwardIcon,
      component: PerformanceToolEntry,
    },
  ],
})

/** The Desempenho tab, beside the editor. */
export const performanceView = (S: StructureBuilder) =>
  S.view.component(PerformanceViewEntry).id(PERFORMANCE_TOOL_NAME).title('Desempenho')
