#!/usr/bin/env python3
"""Sets a bundled SVG visual's texts as outlines, in Inter, for the file the dataset points to:

    apt-get install python3-fonttools python3-brotli   # Debian
    /usr/bin/python3 scripts/outline-visual.py scripts/visuals/como-funciona-fluxo.svg public/images/como-funciona-fluxo.svg

Why: an SVG <img> is a document of its own, laid out on the page's main thread, and SVG text is
the costly part of it: on the bench's emulated phone the risk chart's eleven texts took 30-90 ms
of layout on every page that shows it, while its paths take next to nothing. Outlines also draw
the texts in Inter on every device (an image cannot load the site's web font). The source SVG
keeps the texts to edit; rerun this after changing it. Glyphs come from the Inter package's latin
file (@fontsource-variable/inter, the weight each text asks for); a character it lacks (the
arrow) from DejaVu Sans. No kerning: the labels are short.
"""

import re
import sys
import xml.etree.ElementTree as ET

from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.pens.basePen import BasePen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTFont
from fontTools.varLib import instancer

SVG = 'http://www.w3.org/2000/svg'
INTER = 'node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2'
FALLBACK = {400: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
            700: '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'}
INHERITED = ('font-size', 'font-weight', 'text-anchor', 'fill')

_fonts = {}


class RelativePathPen(BasePen):
    """Path data in relative commands at 0.1 px: about a third smaller than absolute ones."""

    def __init__(self):
        super().__init__(None)
        self.parts, self.at, self.start = [], (0, 0), (0, 0)

    def _emit(self, command, *points):
        # Every point of a relative command is relative to where the command starts.
        numbers = []
        for x, y in points:
            rx, ry = round(x * 10), round(y * 10)
            numbers += [rx - self.at[0], ry - self.at[1]]
        self.at = (round(points[-1][0] * 10), round(points[-1][1] * 10))
        text = ''
        for n in numbers:
            number = re.sub(r'^(-?)0\.', r'\1.', f'{n / 10:.1f}'.rstrip('0').rstrip('.'))
            text += number if not text or number.startswith('-') else ' ' + number
        self.parts.append(command + text)

    def _moveTo(self, point):
        self._emit('m', point)
        self.start = self.at

    def _lineTo(self, point):
        self._emit('l', point)

    def _qCurveToOne(self, control, point):
        self._emit('q', control, point)

    def _curveToOne(self, c1, c2, point):
        self._emit('c', c1, c2, point)

    def _closePath(self):
        self.parts.append('z')
        self.at = self.start

    def commands(self):
        return ''.join(self.parts)


def font(weight):
    if weight not in _fonts:
        _fonts[weight] = instancer.instantiateVariableFont(TTFont(INTER), {'wght': weight})
    return _fonts[weight]


def fallback(weight):
    key = ('fallback', weight)
    if key not in _fonts:
        _fonts[key] = TTFont(FALLBACK[400 if weight < 600 else 700])
    return _fonts[key]


def outline(text, x, y, size, weight, anchor):
    """The text as one path `d`, its baseline starting at (x, y) before the anchor's shift."""
    glyphs = []
    for char in text:
        for face in (font(weight), fallback(weight)):
            name = face.getBestCmap().get(ord(char))
            if name:
                glyphs.append((face, name))
                break
        else:
            raise SystemExit(f'No font here has {char!r} ({text!r}).')
    width = sum(face['hmtx'][name][0] * size / face['head'].unitsPerEm for face, name in glyphs)
    x -= {'middle': width / 2, 'end': width}.get(anchor, 0)
    pen = RelativePathPen()
    for face, name in glyphs:
        scale = size / face['head'].unitsPerEm
        # Accented letters are composites of two glyphs: drawn as plain contours.
        recording = DecomposingRecordingPen(face.getGlyphSet())
        face.getGlyphSet()[name].draw(recording)
        recording.replay(TransformPen(pen, (scale, 0, 0, -scale, x, y)))
        x += face['hmtx'][name][0] * scale
    return pen.commands()


def walk(element, inherited):
    own = {**inherited, **{k: element.get(k) for k in INHERITED if element.get(k) is not None}}
    for index, child in enumerate(list(element)):
        if child.tag == f'{{{SVG}}}text':
            attrs = {**own, **{k: child.get(k) for k in INHERITED if child.get(k) is not None}}
            d = outline(child.text or '', float(child.get('x', 0)), float(child.get('y', 0)),
                        float(attrs.get('font-size', 16)), int(attrs.get('font-weight', 400)),
                        attrs.get('text-anchor', 'start'))
            path = ET.Element(f'{{{SVG}}}path', {'d': d})
            for key in ('fill', 'transform'):
                if child.get(key):
                    path.set(key, child.get(key))
            path.tail = child.tail
            element.remove(child)
            element.insert(index, path)
        else:
            walk(child, own)
    for key in ('font-size', 'font-weight', 'text-anchor', 'font-family'):
        element.attrib.pop(key, None)


def main(source, target):
    ET.register_namespace('', SVG)
    tree = ET.parse(source)
    walk(tree.getroot(), {})
    out = ET.tostring(tree.getroot(), encoding='unicode')
    note = ('<!-- Generated by scripts/outline-visual.py from scripts/visuals/: edit the source '
            'and rerun it. -->\n')
    with open(target, 'w', encoding='utf-8') as f:
        f.write(note + out + '\n')


if __name__ == '__main__':
    if len(sys.argv) != 3:
        raise SystemExit('Usage: scripts/outline-visual.py <source.svg> <target.svg>')
    main(*sys.argv[1:])
