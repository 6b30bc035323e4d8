import { roiCalculatorDocument } from '../../../sanity/lib/fragments'

// The block's own texts, and the calculator's one document (its assumptions are shared with the
// home page's ROI block, so marketing edits them once).
export const roiCalculatorBlockFragment = /* groq */ `_type == "roiCalculatorBlock" => {
  eyebrow, heading, intro,
  "calculator": ${roiCalculatorDocument}
}`
