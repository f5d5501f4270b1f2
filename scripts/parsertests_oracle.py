#!/usr/bin/env python3
"""Selects the template and parser-function cases of MediaWiki's parser tests that use
only what wikic supports, and writes them for the oracle (scripts/parsertests-oracle.sh).

The parser tests are GPL and stay outside the repository: they are read here at test
time from the shared folder, and everything written goes to OUTDIR (a build folder).

  parsertests_oracle.py OUTDIR PARSERTESTS_DIR MESSAGES_EN_PHP

OUTDIR receives articles.json [{title, text}], articles.xml (for importDump) and
cases.json [{file, name, title, text}].
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import export_xml  # noqa: E402

# What wikic's expander implements (src/expand/expander.cpp).
SUPPORTED_IDS = {'!', '=', 'pagename', 'fullpagename', 'basepagename', 'subpagename', 'namespace',
                 'pagelanguage', 'lc', 'uc', 'lcfirst', 'ucfirst', 'padleft', 'padright', 'urlencode',
                 'anchorencode', 'subst', 'safesubst', 'tag', 'url_path', 'url_query', 'url_wiki'}
SUPPORTED_HASH = {'#if', '#ifeq', '#iferror', '#ifexpr', '#switch', '#expr', '#tag', '#titleparts'}
# Options that change how the page is preprocessed or need wiki configuration.
SKIP_OPTIONS = re.compile(r'\b(pst|msg|preload|section|replace|comment|subpage|langconv|variant|disabled|'
                          r'local|cat|ill|showflags|djvu|thumbsize|wgRawHtml|externallinktarget|'
                          r'parsoid=|wgLanguageCode|lastsavedrevision|extlinks|notoc)\b')


def magic_words(messages_php):
    """{synonym: (id, case_sensitive)} from MessagesEn.php's $magicWords."""
    words = {}
    text = open(messages_php, encoding='utf-8').read()
    block = text[text.index('$magicWords = ['):]
    block = block[:block.index('\n];')]
    for m in re.finditer(r"'([^']+)'\s*=>\s*\[\s*([01])\s*,((?:\s*'[^']*'\s*,?)+)\]", block):
        ident, case = m.group(1), m.group(2) == '1'
        for syn in re.findall(r"'([^']*)'", m.group(3)):
            words[syn if case else syn.lower()] = (ident, case)
    return words


def uses_unsupported(text, words):
    for m in re.finditer(r'\{\{\s*([^{}|:\n]*?)\s*(?=[:|}])', text):
        name = m.group(1)
        if not name:
            continue
        if name.lower() in ('mediawiki', 'msg', 'msgnw', 'raw'):
            return name  # system messages come from the wiki's i18n, not from pages
        if name.startswith('#'):
            if name.lower() not in SUPPORTED_HASH:
                return name
            continue
        # Function synonyms are listed with their colon ("NS:", "INT:", "DEFAULTSORT:").
        for key in (name, name.lower(), name + ':', name.lower() + ':'):
            hit = words.get(key)
            if hit and (hit[1] is False or key in (name, name + ':')) and hit[0] not in SUPPORTED_IDS:
                return name
        # A colon after a core function name (ns:, int:, formatnum:...) hits above;
        # anything else is a template name, resolved from the articles.
    return None


def parse(path):
    lines = open(path, encoding='utf-8', errors='replace').read().split('\n')
    i, items = 0, []

    def body(i):
        out = []
        while i < len(lines) and not lines[i].startswith('!!'):
            out.append(lines[i]); i += 1
        return '\n'.join(out), i

    while i < len(lines):
        line = lines[i].strip()
        if line == '!! article':
            title, i = body(i + 1)
            text = ''
            if i < len(lines) and lines[i].strip() == '!! text':
                text, i = body(i + 1)
            items.append(('article', title.strip(), text))
        elif line == '!! test':
            name, i = body(i + 1)
            sections = {}
            while i < len(lines) and lines[i].strip() != '!! end':
                marker = lines[i].strip()
                content, i = body(i + 1)
                sections[marker] = content
            items.append(('test', name.strip(), sections))
        i += 1
    return items


def main(outdir, tests_dir, messages_php):
    words = magic_words(messages_php)
    articles, cases, skipped = {}, [], 0
    for fname in sorted(os.listdir(tests_dir)):
        if not fname.endswith('.txt'):
            continue
        for item in parse(os.path.join(tests_dir, fname)):
            if item[0] == 'article':
                articles[item[1]] = item[2]
                continue
            _, name, sections = item
            text = sections.get('!! wikitext')
            if text is None or '{{' not in text:
                continue
            options = sections.get('!! options', '')
            if '!! config' in sections or SKIP_OPTIONS.search(options) or uses_unsupported(text, words):
                skipped += 1
                continue
            title = 'Parser test'
            m = re.search(r'title=\[\[([^\]]+)\]\]', options)
            if m:
                title = m.group(1)
            cases.append({'file': fname, 'name': name, 'title': title, 'text': text})
    os.makedirs(outdir, exist_ok=True)
    pages = []
    for k, (title, text) in enumerate(sorted(articles.items())):
        if not title:
            continue
        ns = 10 if title.lower().startswith('template:') else 0
        pages.append(({'title': title, 'ns': ns, 'id': 800000 + k, 'revision': 800000 + k,
                       'timestamp': '2030-01-01T00:00:00Z'}, text))
    export_xml.write(os.path.join(outdir, 'articles.xml'), pages)
    json.dump([{'title': p['title'], 'text': t} for p, t in pages],
              open(os.path.join(outdir, 'articles.json'), 'w', encoding='utf-8'), ensure_ascii=False)
    json.dump(cases, open(os.path.join(outdir, 'cases.json'), 'w', encoding='utf-8'), ensure_ascii=False)
    print(f'parsertests_oracle.py: {len(cases)} cases selected, {skipped} skipped (unsupported features), '
          f'{len(pages)} articles')


if __name__ == '__main__':
    main(*sys.argv[1:4])
