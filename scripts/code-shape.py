#!/usr/bin/env python3
"""The shape of the code, as issue 10 measures it: the longest files, the functions of 80
and 100 lines or more, and the format! calls in the judge. Run from the checkout:
    python3 scripts/code-shape.py [--list]
Counts by brace matching on source lines (comments and strings with braces can skew a
count by a line or two; the figures are for trends, not for the compiler)."""
import os, re, sys

def rust_files(root):
    for d, _, fs in os.walk(root):
        if '/target' in d or '/.git' in d:
            continue
        for f in fs:
            if f.endswith('.rs'):
                yield os.path.join(d, f)

FN = re.compile(r'^\s*(pub(\([a-z]+\))?\s+)?(async\s+)?(const\s+)?fn\s+(\w+)')

def functions(path):
    lines = open(path, encoding='utf-8').read().split('\n')
    out = []
    i = 0
    while i < len(lines):
        m = FN.match(lines[i])
        if not m:
            i += 1
            continue
        depth, started, j = 0, False, i
        while j < len(lines):
            code = re.sub(r'"(\\.|[^"\\])*"', '""', lines[j]).split('//')[0]
            for c in code:
                if c == '{':
                    depth += 1; started = True
                elif c == '}':
                    depth -= 1
            if started and depth <= 0:
                break
            if not started and code.rstrip().endswith(';'):
                break
            j += 1
        out.append((m.group(5), i + 1, j - i + 1))
        i += 1
    return out

def main():
    src = [f for f in rust_files('crates') if '/src/' in f] + list(rust_files('src'))
    sizes = sorted(((sum(1 for _ in open(f, encoding='utf-8')), f) for f in src), reverse=True)
    print('longest source files:')
    for n, f in sizes[:8]:
        print(f'  {n:5} {f}')
    fns = [(n, name, f, line) for f in src for (name, line, n) in functions(f)]
    long100 = sorted([x for x in fns if x[0] >= 100], reverse=True)
    long80 = [x for x in fns if x[0] >= 80]
    print(f'functions >= 100 lines: {len(long100)}; >= 80 lines: {len(long80)}')
    if '--list' in sys.argv:
        for n, name, f, line in long100:
            print(f'  {n:4} {name} {f}:{line}')
    judge = [f for f in src if f.startswith('crates/judge/src')]
    fmt = sum(open(f, encoding='utf-8').read().count('format!') for f in judge)
    big = max((n for n, f in sizes if f.startswith('crates/judge/src')), default=0)
    print(f'crates/judge/src: {len(judge)} files, largest {big} lines, {fmt} format! calls')

main()
