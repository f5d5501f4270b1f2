#!/usr/bin/env python3
"""Reads and rewrites the expansion fixtures (corpus/expand/*.txt) for the oracle.

The format follows MediaWiki's parserTests files: `!! article` / `!! text` /
`!! endarticle` define a page; `!! test` NAME, optional `!! options` (key=value lines;
`title=` is the page the case is expanded as), `!! wikitext`, `!! expanded`, `!! end`.
A section's text is the lines between its marker and the next, without the last newline.

  expand_fixtures.py export OUT.xml FILE...   articles as a Special:Export for importDump
  expand_fixtures.py cases FILE...            the cases as JSON [{title, text}] in order
  expand_fixtures.py fill RESULTS.json FILE...  writes MediaWiki's results into `!! expanded`
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import export_xml  # noqa: E402


def parse(path):
    """Items in file order: ('article', title, text) or ('test', name, options, wikitext, expanded)."""
    lines = open(path, encoding='utf-8').read().split('\n')
    items, i = [], 0

    def section(i):
        out = []
        while i < len(lines) and not lines[i].startswith('!!'):
            out.append(lines[i]); i += 1
        return '\n'.join(out), i

    while i < len(lines):
        line = lines[i].rstrip()
        if line == '!! article':
            title, i = section(i + 1)
            assert lines[i].startswith('!! text'), f'{path}:{i + 1}: expected !! text'
            text, i = section(i + 1)
            assert lines[i].startswith('!! endarticle'), f'{path}:{i + 1}: expected !! endarticle'
            items.append(('article', title.strip(), text)); i += 1
        elif line == '!! test':
            name, i = section(i + 1)
            options, wikitext, expanded = {}, None, None
            while not lines[i].startswith('!! end'):
                marker = lines[i].rstrip()
                body, i = section(i + 1)
                if marker == '!! options':
                    for opt in body.split('\n'):
                        if '=' in opt:
                            k, v = opt.split('=', 1); options[k.strip()] = v.strip()
                elif marker == '!! wikitext':
                    wikitext = body
                elif marker == '!! expanded':
                    expanded = body
                else:
                    raise SystemExit(f'{path}:{i}: unknown section {marker}')
            items.append(('test', name.strip(), options, wikitext, expanded)); i += 1
        else:
            i += 1
    return items


def write(path, items, results):
    out = []
    for item in items:
        if item[0] == 'article':
            out += ['!! article', item[1], '!! text', item[2], '!! endarticle', '']
        else:
            _, name, options, wikitext, expanded = item
            out += ['!! test', name]
            if options:
                out += ['!! options'] + [f'{k}={v}' for k, v in options.items()]
            out += ['!! wikitext', wikitext, '!! expanded', results.pop(0), '!! end', '']
    header = []
    for line in open(path, encoding='utf-8').read().split('\n'):
        if line.startswith('!!'):
            break
        header.append(line)
    while header and header[-1] == '':
        header.pop()
    open(path, 'w', encoding='utf-8').write('\n'.join(header + [''] + out))


def main(argv):
    cmd = argv[1]
    if cmd == 'export':
        out, files = argv[2], argv[3:]
        pages, tmpdir = [], os.path.dirname(out)
        for path in files:
            for item in parse(path):
                if item[0] == 'article':
                    f = os.path.join(tmpdir, f'article{len(pages)}.wiki')
                    open(f, 'w', encoding='utf-8').write(item[2])
                    ns = 10 if item[1].startswith('Template:') else 0
                    # A far-future timestamp makes the fixture the latest revision.
                    pages.append(({'title': item[1], 'ns': ns, 'id': 900000 + len(pages),
                                   'revision': 900000 + len(pages), 'timestamp': '2030-01-01T00:00:00Z'},
                                  item[2]))
        export_xml.write(out, pages)
    elif cmd == 'cases':
        cases = []
        for path in argv[2:]:
            for item in parse(path):
                if item[0] == 'test':
                    cases.append({'title': item[2].get('title', 'Expansion test'), 'text': item[3]})
        json.dump(cases, sys.stdout, ensure_ascii=False)
    elif cmd == 'fill':
        results = json.load(open(argv[2], encoding='utf-8'))
        for path in argv[3:]:
            items = parse(path)
            n = sum(1 for it in items if it[0] == 'test')
            write(path, items, results[:n])
            results = results[n:]
            print(f'{path}: {n} cases')
    else:
        raise SystemExit(__doc__)


if __name__ == '__main__':
    main(sys.argv)
