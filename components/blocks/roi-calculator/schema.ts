import { defineType } from 'sanity'

import { blockIntroFields, blockPreview } from '../shared-schema'

export const roiCalculatorBlockType = defineType({
  name: 'roiCalculatorBlock',
  title: 'Calculadora de economia',
  description:
    'A calculadora do bloco de ROI da página inicial: o visitante informa a frota e vê a economia estimada. As premissas ficam em "Premissas da calculadora de economia". Com um formulário de demonstração na página, "Receber a análise completa" leva a ele.',
  type: 'object',
  fields: [...blockIntroFields],
  preview: blockPreview('Calculadora de economia'),
})
