#!/usr/bin/env python3
"""Writes a MediaWiki Special:Export XML file (schema 0.11) from wikitext files.

Used by scripts/make-corpus.sh (the shipped corpus) and scripts/bench.sh (large
generated exports). The siteinfo is Wikicarpedia's as wikic assumes it
(schema/site.yaml); text is XML-escaped exactly as MediaWiki's XmlDumpWriter does
(& < > and " only; newlines and other bytes kept).

  export_xml.py OUT PAGE...        PAGE = JSON object with title, file and optional
                                   ns, id, revision, parent, timestamp, user, userid
  export_xml.py OUT --repeat N --title T --file F   N copies: "T", "T 2", ... "T N"
"""
import hashlib
import json
import os
import sys

NAMESPACES = [(-2, 'Media'), (-1, 'Special'), (0, ''), (1, 'Talk'), (2, 'User'), (3, 'User talk'),
              (4, 'Wikicarpedia'), (5, 'Wikicarpedia talk'), (6, 'File'), (7, 'File talk'),
              (8, 'MediaWiki'), (9, 'MediaWiki talk'), (10, 'Template'), (11, 'Template talk'),
              (12, 'Help'), (13, 'Help talk'), (14, 'Category'), (15, 'Category talk'),
              (1198, 'Translations'), (1199, 'Translations talk')]


def escape(s):
    return s.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;').replace('"', '&quot;')


def sha1_base36(data):
    n = int(hashlib.sha1(data).hexdigest(), 16)
    out = ''
    while n:
        n, r = divmod(n, 36)
        out = '0123456789abcdefghijklmnopqrstuvwxyz'[r] + out
    return out.rjust(31, '0')


def header():
    ns = '\n'.join(f'      <namespace key="{k}" case="first-letter">{v}</namespace>' if v else
                   f'      <namespace key="{k}" case="first-letter" />' for k, v in NAMESPACES)
    return ('<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
            'xsi:schemaLocation="http://www.mediawiki.org/xml/export-0.11/ '
            'http://www.mediawiki.org/xml/export-0.11.xsd" version="0.11" xml:lang="en">\n'
            '  <siteinfo>\n    <sitename>Wikicarpedia</sitename>\n    <dbname>wikicarpedia</dbname>\n'
            '    <base>https://wikicarpedia.com/car/Main_Page</base>\n'
            '    <generator>MediaWiki 1.39.10</generator>\n    <case>first-letter</case>\n'
            f'    <namespaces>\n{ns}\n    </namespaces>\n  </siteinfo>\n')


def page_xml(p, text):
    data = text.encode('utf-8')
    sha = sha1_base36(data)
    parent = f'      <parentid>{p["parent"]}</parentid>\n' if p.get('parent') else ''
    return (f'  <page>\n    <title>{escape(p["title"])}</title>\n    <ns>{p.get("ns", 0)}</ns>\n'
            f'    <id>{p.get("id", 0)}</id>\n    <revision>\n      <id>{p.get("revision", 0)}</id>\n{parent}'
            f'      <timestamp>{p.get("timestamp", "2024-01-01T00:00:00Z")}</timestamp>\n'
            f'      <contributor>\n        <username>{escape(p.get("user", "Wikic"))}</username>\n'
            f'        <id>{p.get("userid", 1)}</id>\n      </contributor>\n'
            f'      <origin>{p.get("revision", 0)}</origin>\n'
            '      <model>wikitext</model>\n      <format>text/x-wiki</format>\n'
            f'      <text bytes="{len(data)}" sha1="{sha}" xml:space="preserve">{escape(text)}</text>\n'
            f'      <sha1>{sha}</sha1>\n    </revision>\n  </page>\n')


def write(out, pages):
    tmp = out + '.tmp'
    with open(tmp, 'w', encoding='utf-8', newline='') as f:
        f.write(header())
        for p, text in pages:
            f.write(page_xml(p, text))
        f.write('</mediawiki>\n')
    os.replace(tmp, out)


def usage(status):
    (sys.stdout if status == 0 else sys.stderr).write(__doc__.split('\n\n', 2)[2])
    sys.exit(status)


def main(argv):
    # OUT comes first and is written over, so an option in its place (`--help`) must
    # never be taken for a file name.
    if len(argv) < 2 or argv[1] in ('-h', '--help'):
        usage(0 if len(argv) >= 2 else 2)
    if argv[1].startswith('-'):
        usage(2)
    out = argv[1]
    if len(argv) > 2 and argv[2] == '--repeat':
        if len(argv) != 8 or argv[4] != '--title' or argv[6] != '--file' or not argv[3].isdigit():
            usage(2)
        n, title, path = int(argv[3]), argv[5], argv[7]
        text = open(path, encoding='utf-8', newline='').read()
        write(out, (({'title': title if k == 1 else f'{title} {k}', 'id': k, 'revision': k}, text)
                    for k in range(1, n + 1)))
        return
    pages = []
    for spec in argv[2:]:
        p = json.loads(spec)
        pages.append((p, open(p['file'], encoding='utf-8', newline='').read()))
    write(out, pages)


if __name__ == '__main__':
    main(sys.argv)
