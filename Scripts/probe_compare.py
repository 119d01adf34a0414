#!/usr/bin/env python3
"""Compares two outputs of the interop probe (`../shared/interop/real-server/probe.py`), the
real open-source Milagro server's and `serve --profile milagro-oss`'s, answer by answer.

usage: probe_compare.py REAL.json OURS.json [--allowed DIFFERENCES.json] [--quiet]

Per step (matched by the step name), the rules of the milagro-oss profile:
* status and reason phrase equal (always a failure, never allowed);
* the header field names equal, in the same order;
* each field's value equal, apart from `Date`, `Etag`, the random parts of `Set-Cookie` (the
  signed session value, its time stamp, the expiry date) and `Content-Length`, which must be the
  length of the answer's own body (a HEAD's: of the body it would have had, not checked);
* the body: equal bytes when it is not JSON; for JSON, the same text after masking the values
  that differ from run to run (hex of 16 digits or more, times, integers of five digits or more,
  runs of five digits or more in strings, the probe's random user-id suffix, the backend's
  `http://host:port`), and the text must be what Python's `json.dumps` writes for it (key order
  kept, `", "` and `": "`), on both sides.
A difference listed in the allowed file (`{"items": [{"aspect", "steps", "reason"}]}`, aspect one
of `headers`, `body`) is reported but does not fail. Exit status 1 on any other difference.
"""
import json
import re
import sys

MASKS = [
    # the probes' random user-id suffix (six hex digits after a '-', before '@', '"' or the end),
    # masked first: when all six are digits the digit-run mask below would take it otherwise
    (re.compile(r'(?<=-)[0-9a-f]{6}(?=@|"|$)'), '<sfx>'),
    (re.compile(r'http://(127\.\d+\.\d+\.\d+|localhost|\[::1\]):\d+'), '<HOST>'),
    (re.compile(r'probe-([A-Za-z0-9]+)-[0-9a-f]{6}@'), r'probe-\1-<sfx>@'),
    (re.compile(r'x[0-9a-f]{6}@example'), 'x<sfx>@example'),
    (re.compile(r'\d{4}-\d\d-\d\d[T ]\d\d(:|%3A)\d\d(:|%3A)\d\d(\.\d+)?Z?'), '<time>'),
    (re.compile(r'[0-9a-f]{16,}'), lambda m: '<hex%d>' % len(m.group(0))),
    (re.compile(r'\d{5,}'), lambda m: '<digits%d>' % len(m.group(0))),
]


def mask_text(s):
    for pattern, replacement in MASKS:
        s = pattern.sub(replacement, s)
    return s


def mask_json(v):
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int):
        return '<int%d>' % len(str(v)) if abs(v) >= 10000 else v
    if isinstance(v, str):
        return mask_text(v)
    if isinstance(v, list):
        return [mask_json(x) for x in v]
    if isinstance(v, dict):
        return {k: mask_json(x) for k, x in v.items()}
    return v


def body_view(record):
    """The body as compared, and a formatting problem if any."""
    text = record['body']
    try:
        parsed = json.loads(text)
    except ValueError:
        return 'raw:' + text, None
    problem = None if json.dumps(parsed) == text else 'not written as json.dumps writes it'
    return 'json:' + json.dumps(mask_json(parsed)), problem


COOKIE = re.compile(r'^(\w+)=("2\|1:0\|\d+:\d+\|\d+:\w+\|\d+:[A-Za-z0-9+/=]+\|[0-9a-f]{64}")?; expires=[^;]+; Path=/$')


def header_view(record):
    out = []
    for name, value in record['headers']:
        lower = name.lower()
        if lower in ('date', 'etag', 'content-length'):
            value = '<%s>' % lower
        elif lower == 'set-cookie':
            m = COOKIE.match(value)
            value = ('<cookie %s%s>' % (m.group(1), ' signed' if m.group(2) else ' cleared')) if m else value
        elif lower == 'location':
            value = mask_text(value)
        out.append((name, value))
    return out


def differences(real, ours):
    """(aspect, text) of each difference of one step; aspect status is never allowed."""
    out = []
    if (real['status'], real.get('reason')) != (ours['status'], ours.get('reason')):
        out.append(('status', '%s %r / %s %r' % (real['status'], real.get('reason'), ours['status'], ours.get('reason'))))
    hr, ho = header_view(real), header_view(ours)
    if hr != ho:
        names_r, names_o = [n for n, _ in hr], [n for n, _ in ho]
        if names_r != names_o:
            out.append(('headers', 'names %s / %s' % (','.join(names_r), ','.join(names_o))))
        else:
            for (n, a), (_, b) in zip(hr, ho):
                if a != b:
                    out.append(('headers', '%s: %r / %r' % (n, a[:120], b[:120])))
    length = dict((n.lower(), v) for n, v in ours['headers']).get('content-length')
    if ours['method'] != 'HEAD' and length is not None and int(length) != ours['body_len']:
        out.append(('headers', 'Content-Length %s is not the body length %d' % (length, ours['body_len'])))
    (br, pr), (bo, po) = body_view(real), body_view(ours)
    if po:
        out.append(('body', po))
    if br != bo:
        out.append(('body', '%s / %s' % (br[:160], bo[:160])))
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    real, ours = (json.load(open(p)) for p in args[:2])
    allowed = {}
    if '--allowed' in sys.argv:
        items = json.load(open(sys.argv[sys.argv.index('--allowed') + 1]))['items']
        for item in items:
            for step in item['steps']:
                allowed[(step, item['aspect'])] = item['reason']
    quiet = '--quiet' in sys.argv
    rr = {r['step']: r for r in real['records']}
    ro = {r['step']: r for r in ours['records']}
    differing, status_differing, failures = 0, 0, 0
    for step in [r['step'] for r in real['records']]:
        if step not in ro:
            print('FAIL %-36s missing from the second output' % step)
            differing += 1
            failures += 1
            continue
        found = differences(rr[step], ro[step])
        if not found:
            continue
        differing += 1
        if any(a == 'status' for a, _ in found):
            status_differing += 1
        for aspect, text in found:
            listed = (step, aspect) in allowed
            if not listed:
                failures += 1
            if not (quiet and listed):
                print('%s %-36s %-7s %s' % ('allowed' if listed else 'FAIL', step, aspect, text))
    print('%d of %d answers differ (%d in status or reason); %d differences not allowed'
          % (differing, len(rr), status_differing, failures))
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
