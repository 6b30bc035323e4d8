#!/usr/bin/env python3
"""Cut Inter (from @fontsource-variable/inter) down to what the page uses, for app/fonts/.

The latin variable file is 48 KB: the whole 100-900 weight axis, fractions, contextual
alternates and Latin punctuation the page never sets. On a phone on a weak 3G link those bytes
compete with the HTML and the JavaScript. This keeps:
  - the weights the site uses, 400 (font-normal) to 800 (font-extrabold), still one variable file;
  - Basic Latin and Latin-1 (all of Portuguese and the names editors may type) plus typographic
    punctuation; anything else falls back to the size-adjusted Arial next/font declares;
  - kerning, marks, localized forms and tabular figures (`tabular-nums` in the claim figures).
The result is about 23 KB. Run it again after upgrading @fontsource-variable/inter:

    apt-get install python3-fonttools python3-brotli   # Debian
    /usr/bin/python3 scripts/subset-font.py

It also writes app/fonts/inter-subset.json, the code points the file covers, which a unit test
checks the bundled content against, and the same characters as static WOFF files in the weights
the social image (app/opengraph-image.tsx) sets, 700 and 800: its renderer, Satori, reads neither
WOFF2 nor variable fonts. So the site needs one Inter package, and only to run this script.
"""

import io
import json
import os

from fontTools import subset
from fontTools.ttLib import TTFont
from fontTools.varLib import instancer

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(
    ROOT, "node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2"
)
OUT_DIR = os.path.join(ROOT, "app/fonts")
WEIGHTS = (400, 800)
SOCIAL_IMAGE_WEIGHTS = (700, 800)
FEATURES = ["ccmp", "locl", "kern", "mark", "mkmk", "tnum"]
PUNCTUATION = "\u2010\u2011\u2013\u2014\u2018\u2019\u201a\u201c\u201d\u201e\u2022\u2026\u2039\u203a\u20ac\u2122\u2212\u2009\u202f"


def instance(weights):
    """The variable font limited to `weights` (a range, or one weight for a static font)."""
    # Instancing leaves some tables lazily loaded; a round trip makes them concrete for subsetting.
    limited = instancer.instantiateVariableFont(TTFont(SOURCE), {"wght": weights})
    buffer = io.BytesIO()
    limited.flavor = None
    limited.save(buffer)
    buffer.seek(0)
    return TTFont(buffer)


def cut(font, unicodes):
    options = subset.Options()
    options.layout_features = FEATURES
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)


def main():
    font = instance(WEIGHTS)
    wanted = set(range(0x20, 0x7F)) | set(range(0xA0, 0x100)) | {ord(c) for c in PUNCTUATION}
    unicodes = sorted(c for c in font.getBestCmap() if c in wanted)
    cut(font, unicodes)

    font.flavor = "woff2"
    target = os.path.join(OUT_DIR, "inter-latin-400-800.woff2")
    font.save(target)
    with open(os.path.join(OUT_DIR, "inter-subset.json"), "w", encoding="utf-8") as manifest:
        json.dump({"weights": list(WEIGHTS), "codePoints": unicodes}, manifest)
        manifest.write("\n")
    print(f"{os.path.relpath(target, ROOT)}: {os.path.getsize(target)} bytes, {len(unicodes)} code points")

    for weight in SOCIAL_IMAGE_WEIGHTS:
        static = instance(weight)
        cut(static, unicodes)
        static.flavor = "woff"
        target = os.path.join(OUT_DIR, f"inter-latin-{weight}.woff")
        static.save(target)
        print(f"{os.path.relpath(target, ROOT)}: {os.path.getsize(target)} bytes")


if __name__ == "__main__":
    main()
