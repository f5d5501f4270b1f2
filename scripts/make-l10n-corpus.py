#!/usr/bin/env python3
"""Writes the translation fixtures corpus/l10n/*.xml from scripts/l10n_corpus/*.py.

The translation pages Page/xx are generated the way the Translate extension's FuzzyBot
writes them (TranslatablePageParser + TranslationUnit::getTextForRendering, see
corpus/l10n/README.md), so that they agree with the unit pages byte for byte. The hand
counts in corpus/l10n/expected/ are NOT produced here; they are the independent oracle.

  scripts/make-l10n-corpus.py [OUTDIR]      (default corpus/l10n)
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, 'l10n_corpus'))
import export_xml  # noqa: E402
import after_the_game  # noqa: E402
import turn_sequence  # noqa: E402

FUZZY = '!!FUZZY!!'  # Translate's TRANSLATE_FUZZY
TVAR_OLD = re.compile(r'<tvar\|([^>]+)>(.*?)</>', re.S)
TVAR_NEW = re.compile(r'''<tvar\s+name\s*=\s*(?:'([^']*)'|"([^"]*)"|([^"'\s>]*))\s*>(.*?)</tvar\s*>''', re.S | re.I)


class Unit:
    def __init__(self, uid, text, inline):
        self.id, self.text, self.inline = uid, text, inline

    def variables(self):
        """(definition, $name, value) as TranslationUnit::getVariables lists them."""
        out = [(m.group(0), '$' + m.group(1), m.group(2)) for m in TVAR_OLD.finditer(self.text)]
        out += [(m.group(0), '$' + (m.group(1) or m.group(2) or m.group(3) or ''), m.group(4))
                for m in TVAR_NEW.finditer(self.text)]
        return out

    def text_with_variables(self):
        t = self.text
        for d, name, _ in self.variables():
            t = t.replace(d, name)
        return t

    def heading(self, text):
        m = re.match(r'^(={1,6})[ \t]*(.+?)[ \t]*\1\s*$', text)
        return m.group(2) if m else None

    def render(self, translation):
        """TranslationUnit::getTextForRendering with wrapUntranslated = false (page version 1)."""
        heading = None
        if translation is not None:
            content = translation
            heading = self.heading(self.text_with_variables())
            if FUZZY in content:
                content = content.replace(FUZZY, '')
                content = (f'<span class="mw-translate-fuzzy">{content}</span>' if self.inline
                           else f'<div class="mw-translate-fuzzy">\n{content}\n</div>')
        else:
            content = self.text_with_variables()
        if heading is not None and not self.inline:
            anchor = heading.replace(' ', '_')
            content = f'<span id="{anchor}"></span>\n{content}'
        for _, name, value in sorted(self.variables(), key=lambda v: -len(v[1])):
            content = content.replace(name, value)
        return content


def parse(source):
    """TranslatablePageParser::parse: units in order and the translation-page template."""
    units, template, n = [], source, 0
    while True:
        m = re.search(r'(<translate(?: nowrap)?>)(.*?)</translate>', template, re.S)
        if not m:
            break
        inner = m.group(2)
        inline = '\n' not in inner
        parts = [p for p in re.split(r'(^\s*|\s*\n\n\s*|\s*$)', inner) if p]
        sect = ''
        for p in parts:
            if p.strip() == '':
                sect += p
                continue
            markers = re.findall(r'<!--T:(.*?)-->', p)
            assert len(markers) <= 1, p
            uid = markers[0] if markers else None
            if uid is not None:
                p = re.sub(r'^<!--T:(.*?)-->( |\n)', '', p, count=1)
                p = re.sub(r'\s*<!--T:(.*?)-->$', '', p, flags=re.M)
            ph = f'\x7fUNIT{n}\x7f'
            n += 1
            units.append((ph, Unit(uid, p, inline)))
            sect += ph
        # Section::contents(): a translate tag on its own line leaves no empty line behind
        sect = re.sub(r'\A\n', '', sect)
        sect = re.sub(r'\n\Z', '', sect)
        template = template[:m.start()] + sect + template[m.end():]
    assert '<translate' not in template and '</translate>' not in template
    return units, template


def translation_page(source, translations):
    units, template = parse(source)
    for ph, u in units:
        template = template.replace(ph, u.render(translations.get(u.id)))
    return template


class Export:
    def __init__(self):
        self.pages, self.page_id, self.rev_id = [], 9000, 700000

    def add(self, title, ns, revisions):
        """revisions: list of (text, timestamp, user, userid, comment)."""
        self.page_id += 1
        self.pages.append((title, ns, self.page_id, revisions))

    def write(self, out):
        parts = [export_xml.header()]
        for title, ns, pid, revisions in self.pages:
            parts.append(f'  <page>\n    <title>{export_xml.escape(title)}</title>\n    <ns>{ns}</ns>\n'
                         f'    <id>{pid}</id>\n')
            parent = None
            for text, ts, user, userid, comment in revisions:
                self.rev_id += 7
                data = text.encode('utf-8')
                sha = export_xml.sha1_base36(data)
                par = f'      <parentid>{parent}</parentid>\n' if parent else ''
                parts.append(f'    <revision>\n      <id>{self.rev_id}</id>\n{par}'
                             f'      <timestamp>{ts}</timestamp>\n'
                             f'      <contributor>\n        <username>{export_xml.escape(user)}</username>\n'
                             f'        <id>{userid}</id>\n      </contributor>\n'
                             f'      <comment>{export_xml.escape(comment)}</comment>\n'
                             f'      <origin>{self.rev_id}</origin>\n'
                             '      <model>wikitext</model>\n      <format>text/x-wiki</format>\n'
                             f'      <text bytes="{len(data)}" sha1="{sha}" xml:space="preserve">'
                             f'{export_xml.escape(text)}</text>\n'
                             f'      <sha1>{sha}</sha1>\n    </revision>\n')
                parent = self.rev_id
            parts.append('  </page>\n')
        parts.append('</mediawiki>\n')
        tmp = out + '.tmp'
        with open(tmp, 'w', encoding='utf-8', newline='') as f:
            f.write(''.join(parts))
        os.replace(tmp, out)


BOT = ('FuzzyBot', 2)
TRANSLATORS = {'fr': ('Cédric', 41), 'cs': ('Vojta', 57), 'nl': ('Meeple-NL', 63)}
MARKED = 'Marked this version for translation'
UPDATE = 'Updating to match new version of source page'


def unit_pages(ex, title, units, lang, translations, display_title, ts_unit, ts_fuzzy):
    user, uid = TRANSLATORS[lang]
    for key in ['Page display title'] + [u.id for _, u in units if u.id is not None]:
        text = display_title if key == 'Page display title' else translations.get(key)
        if text is None:
            continue
        revs = [(text.replace(FUZZY, ''), ts_unit, user, uid, '')]
        if text.startswith(FUZZY):
            revs.append((text, ts_fuzzy, BOT[0], BOT[1], MARKED))
        ex.add(f'Translations:{title}/{key}/{lang}', 1198, revs)


def source_unit_pages(ex, title, units, ts):
    seen = set()
    ex.add(f'Translations:{title}/Page display title/en', 1198, [(title, ts, BOT[0], BOT[1], MARKED)])
    for _, u in units:
        if u.id is None or u.id in seen:
            continue
        seen.add(u.id)
        ex.add(f'Translations:{title}/{u.id}/en', 1198, [(u.text_with_variables(), ts, BOT[0], BOT[1], MARKED)])


def after_the_game_fixture(out):
    m = after_the_game
    units, _ = parse(m.SOURCE)
    ex = Export()
    ex.add(m.TITLE, 0, [(m.SOURCE, '2024-03-09T18:12:00Z', 'Bumsakalaka', 3, 'Ghosts rows for every feature')])
    source_unit_pages(ex, m.TITLE, units, '2024-03-09T18:14:00Z')
    unit_pages(ex, m.TITLE, units, 'fr', m.FR, m.DISPLAY_TITLE_FR, '2023-06-02T07:40:00Z', '2024-03-09T18:14:00Z')
    ex.add(f'{m.TITLE}/fr', 0, [(translation_page(m.SOURCE, m.FR), '2024-03-09T18:15:00Z', BOT[0], BOT[1], UPDATE)])
    ex.write(os.path.join(out, 'scoring-after-the-game.xml'))


def turn_sequence_fixture(out):
    m = turn_sequence
    latest = m.MARKED
    for old, new in m.LATEST_EDITS:
        assert latest.count(old) == 1, old
        latest = latest.replace(old, new)
    units, _ = parse(m.MARKED)
    ex = Export()
    ex.add(m.TITLE, 0, [(m.MARKED, '2024-01-21T22:36:00Z', 'Bumsakalaka', 3, 'Wells and inns rows'),
                        (latest, '2024-02-04T10:05:00Z', 'Bumsakalaka', 3, 'Step 1B note; ghosts row')])
    source_unit_pages(ex, m.TITLE, units, '2024-01-21T22:40:00Z')
    for lang in ['fr', 'cs', 'nl']:
        unit_pages(ex, m.TITLE, units, lang, m.UNITS[lang], m.DISPLAY_TITLE.get(lang),
                   '2023-11-18T20:00:00Z', '2024-01-21T22:40:00Z')
    for lang in m.TRANSLATION_PAGES:
        ex.add(f'{m.TITLE}/{lang}', 0,
               [(translation_page(m.MARKED, m.UNITS[lang]), '2024-01-21T22:41:00Z', BOT[0], BOT[1], UPDATE)])
    ex.write(os.path.join(out, 'turn-sequence-multilingual.xml'))


def main(argv):
    out = argv[1] if len(argv) > 1 else os.path.join(HERE, '..', 'corpus', 'l10n')
    os.makedirs(out, exist_ok=True)
    after_the_game_fixture(out)
    turn_sequence_fixture(out)


if __name__ == '__main__':
    main(sys.argv)
