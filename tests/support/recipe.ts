import { readFileSync } from 'node:fs'

/**
 * A doc's "Adding a …" recipe: its text up to the next heading, the files its numbered steps name
 * (each step's first code span) and the count it states ("At most N files", "take N files").
 * The recipe tests hold each doc's list to what they add by hand.
 */
export function readRecipe(docPath: string, heading: string) {
  const doc = readFileSync(docPath, 'utf8')
  if (!doc.includes(heading)) throw new Error(`${docPath} has no "${heading}"`)
  const text = doc.split(heading)[1]!.split(/\n#/)[0]!
  const files = [...text.matchAll(/^\d+\. `([^`]+)`/gm)].map((match) => match[1]!)
  const stated = /(?:At most|take) (\d+) files/.exec(text)?.[1]
  return { text, files, statedCount: stated === undefined ? undefined : Number(stated) }
}
