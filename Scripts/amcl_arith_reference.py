#!/usr/bin/env python3
"""Exact reference for AMCL's arithmetic vector files (BN254CX and BN254).

Checks every field of

    <dir>/{fp,fp2,fp4,fp12,ecp,ecp2}/test_vector_{BN254CX,BN254}.txt

against an independent computation in plain Python integers, and prints per file
``N passed / M failed`` (one test block passes when every field in it is explained:
each field is either an input or an output that matches the computation below).

Usage:
    python3 Scripts/amcl_arith_reference.py [DIR] [-v]

DIR defaults to ../shared/vectors/amcl/arith beside the repository (the published files are read
from there and never copied into the repository). Exit status 0 when every block of every file
passes, 2 when the folder is absent.

The meaning of each field (what AMCL's test programs compute) was worked out from the
vectors themselves; Scripts/ARITH-FIELDS.md has the table. Highlights:
  * values are written as upper-case hex, whole bytes (an even number of digits),
    without leading zero bytes; FP2 "[re,im]", FP4 "[[..],[..]]", FP12 "[[[..]]]",
    ECP "x:y", ECP2 "xre:xim&yre:yim";
  * a few fields depend on the 1-based test number N of the block ("#test N"):
    FP2imul and FP4imul multiply by N-1, FP12pinpow raises to the power N;
  * the XTR fields (FP4_xtr*, FP12compow*) follow AMCL's FP4_xtr_A / FP4_xtr_D /
    FP4_xtr_pow / FP4_xtr_pow2 / FP12_compow step by step. FP4_xtrpow2's four input
    traces are not a consistent (c_k, c_l, c_{k-l}, c_{k-2l}) quadruple, so its value
    depends on AMCL's exact ladder;
  * points: ECPwrong / ECP2wrong are pairs that are NOT on the curve; ECPinf / ECP2inf
    are AMCL's raw coordinates of the point at infinity (x = 0, y = 1).

Tower (docs/crypto.md section 2.2): Fp2 = Fp[i]/(i^2+1), Fp4 = Fp2[s]/(s^2-(1+i)),
Fp12 = Fp4[w]/(w^3-s). FP4 (a, b) = a + b*s; FP12 (a, b, c) = a + b*w + c*w^2.
"""

import os
import re
import sys

# ---------------------------------------------------------------------------------------------
# Curve constants (docs/crypto.md section 2.1)

CURVES = {
    "BN254CX": dict(
        p=0x2400000008702A0DB0BDDF647A6366D3243FD6EE18093EE1BE6623EF5C1B55B3,
        r=0x2400000008702A0DB0BDDF647A6366D2C43FD6EE0CC906CEBE11C0A636EB1F6D,
        fra=0x1359082FA63A0164AFE18B8AACA7189868677326F173F8215BD9083355C80EA3,
        frb=0x10A6F7D0623628A900DC53D9CDBC4E3ABBD863C7269546C0628D1BBC06534710,
    ),
    "BN254": dict(
        p=0x2523648240000001BA344D80000000086121000000000013A700000000000013,
        r=0x2523648240000001BA344D8000000007FF9F800000000010A10000000000000D,
        fra=0x1B377619212E7C8CB6499B50A846953F850974924D3F77C2E17DE6C06F2A6DE9,
        frb=0x09EBEE691ED1837503EAB22F57B96AC8DC178B6DB2C08850C582193F90D5922A,
    ),
}

# ---------------------------------------------------------------------------------------------
# The tower. An element is a plain tuple; Fp values are ints in [0, p).


class Tower:
    def __init__(self, curve):
        c = CURVES[curve]
        self.p, self.r = c["p"], c["r"]
        self.X = (c["fra"], c["frb"])  # Frobenius constant, (1+i)^((p-1)/6)

    # Fp
    def sqrt(self, a):  # p = 3 mod 4; None when a is not a square
        y = pow(a, (self.p + 1) // 4, self.p)
        return y if y * y % self.p == a % self.p else None

    def is_qr(self, a):  # AMCL: jacobi == 1 (zero is not a square)
        return pow(a, (self.p - 1) // 2, self.p) == 1

    # Fp2: (a, b) = a + b*i
    def f2(self, a, b=0):
        return (a % self.p, b % self.p)

    def f2add(self, x, y):
        return self.f2(x[0] + y[0], x[1] + y[1])

    def f2sub(self, x, y):
        return self.f2(x[0] - y[0], x[1] - y[1])

    def f2neg(self, x):
        return self.f2(-x[0], -x[1])

    def f2mul(self, x, y):
        return self.f2(x[0] * y[0] - x[1] * y[1], x[0] * y[1] + x[1] * y[0])

    def f2muls(self, x, k):  # by an Fp value or a small integer
        return self.f2(x[0] * k, x[1] * k)

    def f2conj(self, x):
        return self.f2(x[0], -x[1])

    def f2inv(self, x):
        n = pow((x[0] * x[0] + x[1] * x[1]) % self.p, -1, self.p)
        return self.f2(x[0] * n, -x[1] * n)

    def f2mulxi(self, x):  # * (1+i)
        return self.f2(x[0] - x[1], x[0] + x[1])

    def f2pow(self, x, e):
        r = (1, 0)
        for bit in bin(e)[2:]:
            r = self.f2mul(r, r)
            if bit == "1":
                r = self.f2mul(r, x)
        return r

    def f2sqrt(self, u):
        """AMCL FP2_sqrt: a root of u = a + b*i, or None. Which of the two roots is
        irrelevant here (callers normalise)."""
        a, b = u
        if u == (0, 0):
            return u
        if b == 0:
            s = self.sqrt(a)
            return (s, 0) if s is not None else (0, self.sqrt(-a % self.p))
        w1 = self.sqrt((a * a + b * b) % self.p)
        if w1 is None:
            return None
        half = pow(2, -1, self.p)
        w2 = (a + w1) * half % self.p
        if not self.is_qr(w2):
            w2 = (a - w1) * half % self.p
            if not self.is_qr(w2):
                return None
        w2 = self.sqrt(w2)
        return self.f2(w2, b * pow(2 * w2, -1, self.p))

    # Fp4: (A, B) = A + B*s, s^2 = 1+i
    Z2, O2 = (0, 0), (1, 0)

    def f4add(self, x, y):
        return (self.f2add(x[0], y[0]), self.f2add(x[1], y[1]))

    def f4sub(self, x, y):
        return (self.f2sub(x[0], y[0]), self.f2sub(x[1], y[1]))

    def f4neg(self, x):
        return (self.f2neg(x[0]), self.f2neg(x[1]))

    def f4mul(self, x, y):
        a = self.f2add(self.f2mul(x[0], y[0]), self.f2mulxi(self.f2mul(x[1], y[1])))
        b = self.f2add(self.f2mul(x[0], y[1]), self.f2mul(x[1], y[0]))
        return (a, b)

    def f4pmul(self, x, c):  # by an Fp2 value
        return (self.f2mul(x[0], c), self.f2mul(x[1], c))

    def f4imul(self, x, k):  # by a small integer
        return (self.f2muls(x[0], k), self.f2muls(x[1], k))

    def f4conj(self, x):  # a - b*s  (= x^(p^2))
        return (x[0], self.f2neg(x[1]))

    def f4nconj(self, x):  # -a + b*s
        return (self.f2neg(x[0]), x[1])

    def f4times_s(self, x):  # AMCL FP4_times_i: * s
        return (self.f2mulxi(x[1]), x[0])

    def f4inv(self, x):
        d = self.f2inv(self.f2sub(self.f2mul(x[0], x[0]), self.f2mulxi(self.f2mul(x[1], x[1]))))
        return (self.f2mul(x[0], d), self.f2neg(self.f2mul(x[1], d)))

    def f4pow(self, x, e):
        r = ((1, 0), (0, 0))
        for bit in bin(e)[2:]:
            r = self.f4mul(r, r)
            if bit == "1":
                r = self.f4mul(r, x)
        return r

    def f4frob(self, x):  # x^p = conj(a) + conj(b) * X^3 * s
        x3 = self.f2mul(self.f2mul(self.X, self.X), self.X)
        return (self.f2conj(x[0]), self.f2mul(self.f2conj(x[1]), x3))

    # Fp12: (A, B, C) = A + B*w + C*w^2, w^3 = s
    def f12one(self):
        return (((1, 0), (0, 0)), ((0, 0), (0, 0)), ((0, 0), (0, 0)))

    def f12mul(self, x, y):
        a0, a1, a2 = x
        b0, b1, b2 = y
        m = self.f4mul
        c0 = self.f4add(m(a0, b0), self.f4times_s(self.f4add(m(a1, b2), m(a2, b1))))
        c1 = self.f4add(self.f4add(m(a0, b1), m(a1, b0)), self.f4times_s(m(a2, b2)))
        c2 = self.f4add(self.f4add(m(a0, b2), m(a1, b1)), m(a2, b0))
        return (c0, c1, c2)

    def f12pow(self, x, e):
        r = self.f12one()
        for bit in bin(e)[2:]:
            r = self.f12mul(r, r)
            if bit == "1":
                r = self.f12mul(r, x)
        return r

    def f12conj(self, x):  # x^(p^6): negate the odd powers of w
        return (self.f4conj(x[0]), self.f4nconj(x[1]), self.f4conj(x[2]))

    def f12inv(self, x):
        a, b, c = x
        m, ts = self.f4mul, self.f4times_s
        wa = self.f4sub(m(a, a), ts(m(b, c)))
        wb = self.f4sub(ts(m(c, c)), m(a, b))
        wc = self.f4sub(m(b, b), m(a, c))
        f = self.f4inv(self.f4add(self.f4add(ts(m(b, wc)), m(a, wa)), ts(m(c, wb))))
        return (m(wa, f), m(wb, f), m(wc, f))

    def f12frob(self, x):  # x^p; w^p = X*w
        x2 = self.f2mul(self.X, self.X)
        return (self.f4frob(x[0]), self.f4pmul(self.f4frob(x[1]), self.X),
                self.f4pmul(self.f4frob(x[2]), x2))

    def trace(self, x):  # AMCL FP12_trace: 3 * x.a (the Fp4 trace of a unitary x)
        return self.f4imul(x[0], 3)

    # ---- AMCL's XTR functions (fp4.c), statement for statement ----
    def xtr_D(self, x):  # x^2 - 2*conj(x)
        return self.f4sub(self.f4mul(x, x), self.f4imul(self.f4conj(x), 2))

    def xtr_A(self, w, x, y, z):  # w*x - conj(x)*y + z
        return self.f4add(self.f4sub(self.f4mul(w, x), self.f4mul(self.f4conj(x), y)), z)

    def xtr_pow(self, x, n):
        """FP4_xtr_pow(r, x, n): the trace c_n from c_1 = x (Montgomery-style ladder)."""
        conj, A, D = self.f4conj, self.xtr_A, self.xtr_D
        a = ((3, 0), (0, 0))
        sf = x
        b = sf
        c = D(sf)
        par = n & 1
        v = n >> 1
        if par == 0:
            v -= 1
        for i in range(v.bit_length() - 1, -1, -1):
            if not (v >> i) & 1:
                t = b
                sf, c = conj(sf), conj(c)
                b = A(a, b, sf, c)
                sf = conj(sf)
                c = D(t)
                a = D(a)
            else:
                t = conj(a)
                a = D(b)
                b = A(c, b, sf, t)
                c = D(c)
        return c if par == 0 else b

    def xtr_pow2(self, ck, cl, ckml, ckm2l, a, b):
        """FP4_xtr_pow2(r, ck, cl, ckml, ckm2l, a, b): c_{a*l + b*k} from c_k, c_l, c_{k-l},
        c_{k-2l} (Stam's double exponentiation; exact only for a consistent quadruple)."""
        conj, A, D = self.f4conj, self.xtr_A, self.xtr_D
        e, d = a, b
        cu, cv, cumv, cum2v = ck, cl, ckml, ckm2l
        f2 = 0
        while d % 2 == 0 and e % 2 == 0:
            d >>= 1
            e >>= 1
            f2 += 1
        while d != e:
            if d > e:
                if d <= 4 * e:
                    d, e = e, d - e
                    t = A(cu, cv, cumv, cum2v)
                    cum2v = conj(cumv)
                    cumv = cv
                    cv = cu
                    cu = t
                elif d % 2 == 0:
                    d >>= 1
                    r = conj(cum2v)
                    t = A(cu, cumv, cv, r)
                    cum2v = D(cumv)
                    cumv = t
                    cu = D(cu)
                elif e % 2 == 1:
                    d = (d - e) >> 1
                    t = A(cu, cv, cumv, cum2v)
                    cu = D(cu)
                    cum2v = conj(D(cv))
                    cv = t
                else:
                    d, e = e >> 1, d
                    t = D(cumv)
                    cumv = conj(cum2v)
                    cum2v = conj(t)
                    t = D(cv)
                    cv = cu
                    cu = t
            if d < e:
                if e <= 4 * d:
                    e = e - d
                    t = A(cu, cv, cumv, cum2v)
                    cum2v = cumv
                    cumv = cu
                    cu = t
                elif e % 2 == 0:
                    d, e = e >> 1, d
                    t = D(cumv)
                    cumv = conj(cum2v)
                    cum2v = conj(t)
                    t = D(cv)
                    cv = cu
                    cu = t
                elif d % 2 == 1:
                    d, e = (e - d) >> 1, d
                    t = A(cu, cv, cumv, cum2v)
                    cumv = conj(cumv)
                    cum2v = conj(D(cu))
                    cu = D(cv)
                    cv = t
                else:
                    d >>= 1
                    r = conj(cum2v)
                    t = A(cu, cumv, cv, r)
                    cum2v = D(cumv)
                    cumv = t
                    cu = D(cu)
        r = A(cu, cv, cumv, cum2v)
        for _ in range(f2):
            r = D(r)
        return self.xtr_pow(r, d)

    def compow(self, g, e, r):
        """FP12_compow(c, g, e, r): Tr(g^e) for g in the order-r subgroup, via XTR:
        e = a + b*m with m = p mod r, then xtr_pow2 on Tr(g^p), Tr(g), Tr(g^(p-1)), Tr(g^(p-2))."""
        m = self.p % r
        a, b = e % m, e // m
        c = self.trace(g)
        if b == 0:
            return self.xtr_pow(c, e)
        g2 = self.f12frob(g)
        cp = self.trace(g2)
        g1 = self.f12conj(g)
        g2 = self.f12mul(g2, g1)
        cpm1 = self.trace(g2)
        g2 = self.f12mul(g2, g1)
        cpm2 = self.trace(g2)
        return self.xtr_pow2(cp, c, cpm1, cpm2, a, b)

    # ---- E: y^2 = x^3 + 2 over Fp (affine; None = infinity) ----
    def g1on(self, P):
        x, y = P
        return (y * y - x * x * x - 2) % self.p == 0

    def g1add(self, P, Q):
        p = self.p
        if P is None:
            return Q
        if Q is None:
            return P
        if P[0] == Q[0]:
            if (P[1] + Q[1]) % p == 0:
                return None
            lam = 3 * P[0] * P[0] * pow(2 * P[1], -1, p) % p
        else:
            lam = (Q[1] - P[1]) * pow(Q[0] - P[0], -1, p) % p
        x = (lam * lam - P[0] - Q[0]) % p
        return (x, (lam * (P[0] - x) - P[1]) % p)

    def g1neg(self, P):
        return None if P is None else (P[0], -P[1] % self.p)

    def g1mul(self, P, k):
        R = None
        for bit in bin(k)[2:]:
            R = self.g1add(R, R)
            if bit == "1":
                R = self.g1add(R, P)
        return R

    def g1setx(self, x, parity):  # AMCL ECP_setx(P, x, s): y with LSB s
        y = self.sqrt((x * x * x + 2) % self.p)
        if y is None:
            return None
        return (x, y if y % 2 == parity else -y % self.p)

    # ---- E': y^2 = x^3 + 2/(1+i) = x^3 + (1 - i) over Fp2 ----
    def g2rhs(self, x):
        return self.f2add(self.f2mul(self.f2mul(x, x), x), self.f2(1, -1))

    def g2on(self, P):
        return self.f2mul(P[1], P[1]) == self.g2rhs(P[0])

    def g2add(self, P, Q):
        if P is None:
            return Q
        if Q is None:
            return P
        if P[0] == Q[0]:
            if self.f2add(P[1], Q[1]) == (0, 0):
                return None
            lam = self.f2mul(self.f2muls(self.f2mul(P[0], P[0]), 3), self.f2inv(self.f2muls(P[1], 2)))
        else:
            lam = self.f2mul(self.f2sub(Q[1], P[1]), self.f2inv(self.f2sub(Q[0], P[0])))
        x = self.f2sub(self.f2sub(self.f2mul(lam, lam), P[0]), Q[0])
        return (x, self.f2sub(self.f2mul(lam, self.f2sub(P[0], x)), P[1]))

    def g2neg(self, P):
        return None if P is None else (P[0], self.f2neg(P[1]))

    def g2mul(self, P, k):
        R = None
        for bit in bin(k)[2:]:
            R = self.g2add(R, R)
            if bit == "1":
                R = self.g2add(R, P)
        return R

    def g2setx(self, x):
        """The point with this x whose y has imaginary part <= (p-1)/2 (ECP2set1)."""
        y = self.f2sqrt(self.g2rhs(x))
        if y is None:
            return None
        if y[1] > (self.p - 1) // 2:
            y = self.f2neg(y)
        return (x, y)


# ---------------------------------------------------------------------------------------------
# Reading and writing AMCL's notation


def read_blocks(path):
    """Blocks of `KEY = value` lines; a `#test N` / `# test N` comment starts block N.
    Other comments (the header, commented-out fields like `#FPexp = ...`) are ignored."""
    blocks, cur = [], None
    with open(path) as fh:
        for ln, line in enumerate(fh, 1):
            s = line.strip()
            if not s:
                continue
            if s.startswith("#"):
                m = re.match(r"#\s*test\s*(\d+)\s*$", s, re.I)
                if m:
                    cur = {"_number": int(m.group(1)), "_line": ln, "_fields": {}}
                    blocks.append(cur)
                continue
            key, _, value = s.partition("=")
            if cur is None:
                cur = {"_number": len(blocks) + 1, "_line": ln, "_fields": {}}
                blocks.append(cur)
            cur["_fields"][key.strip()] = value.strip().rstrip(",")
    return blocks


def parse_value(text):
    """Nested `[..]` lists of hex numbers -> nested tuples of ints; a bare hex -> int."""
    tokens = re.findall(r"\[|\]|,|[0-9A-Fa-f]+", text)
    pos = 0

    def parse():
        nonlocal pos
        tok = tokens[pos]
        pos += 1
        if tok != "[":
            return int(tok, 16)
        items = [parse()]
        while tokens[pos] == ",":
            pos += 1
            items.append(parse())
        assert tokens[pos] == "]", text
        pos += 1
        return tuple(items)

    return parse()


def parse_g1(text):
    x, y = text.split(":")
    return (int(x, 16), int(y, 16))


def parse_g2(text):
    x, y = text.split("&")
    return tuple(tuple(int(t, 16) for t in part.split(":")) for part in (x, y))


def hexs(n):
    """AMCL's printing: upper-case hex, whole bytes, no leading zero bytes; 0 -> "00"."""
    h = "%X" % n
    return h if len(h) % 2 == 0 else "0" + h


def fmt(v):
    return "[" + ",".join(fmt(t) for t in v) + "]" if isinstance(v, tuple) else hexs(v)


def fmt_g1(P):
    return "INFINITY" if P is None else hexs(P[0]) + ":" + hexs(P[1])


def fmt_g2(P):
    if P is None:
        return "INFINITY"
    (xa, xb), (ya, yb) = P
    return "%s:%s&%s:%s" % (hexs(xa), hexs(xb), hexs(ya), hexs(yb))


# ---------------------------------------------------------------------------------------------
# What each file's fields mean. Each kind returns (inputs, outputs): `inputs` are read,
# `outputs` map a field to a function of (tower, parsed inputs, test number) giving the
# expected text.

def kind_fp():
    inputs = {"FP_1": parse_value, "FP_2": parse_value}

    def o(f):
        return lambda T, v, n: hexs(f(T, v["FP_1"], v["FP_2"], n))

    outputs = {
        "FPadd": o(lambda T, a, b, n: (a + b) % T.p),
        "FPsub": o(lambda T, a, b, n: (a - b) % T.p),
        "FP_1nres": o(lambda T, a, b, n: a % T.p),       # into Montgomery form and back
        "FP_2nres": o(lambda T, a, b, n: b % T.p),       # (test 10's FP_2 is >= p)
        "FPmulmod": o(lambda T, a, b, n: a * b % T.p),
        "FPsmallmul": o(lambda T, a, b, n: a * 10 % T.p),
        "FPsqr": o(lambda T, a, b, n: a * a % T.p),
        "FPreduce": o(lambda T, a, b, n: a % T.p),
        "FPneg": o(lambda T, a, b, n: -a % T.p),
        "FPdiv2": o(lambda T, a, b, n: a * pow(2, -1, T.p) % T.p),
        "FPinv": o(lambda T, a, b, n: pow(a, -1, T.p)),
        "FPexp": o(lambda T, a, b, n: pow(a, b, T.p)),  # exponent FP_2 as an integer
    }
    return inputs, outputs


def kind_fp2():
    inputs = {"FP2_1": parse_value, "FP2_2": parse_value, "BIGsc": parse_value}

    def o(f):
        return lambda T, v, n: fmt(f(T, T.f2(*v["FP2_1"]), T.f2(*v["FP2_2"]), v["BIGsc"], n))

    outputs = {
        "FP2add": o(lambda T, x, y, s, n: T.f2add(x, y)),
        "FP2neg": o(lambda T, x, y, s, n: T.f2neg(x)),
        "FP2sub": o(lambda T, x, y, s, n: T.f2sub(x, y)),
        "FP2conj": o(lambda T, x, y, s, n: T.f2conj(x)),
        "FP2pmul": o(lambda T, x, y, s, n: T.f2muls(x, s)),          # by the Fp value BIGsc
        "FP2imul": o(lambda T, x, y, s, n: T.f2muls(x, n - 1)),      # by the test number - 1
        "FP2sqr": o(lambda T, x, y, s, n: T.f2mul(x, x)),
        "FP2mul": o(lambda T, x, y, s, n: T.f2mul(x, y)),
        "FP2pow": o(lambda T, x, y, s, n: T.f2pow(x, s)),
        "FP2inv": o(lambda T, x, y, s, n: T.f2inv(x)),
        "FP2div2": o(lambda T, x, y, s, n: T.f2muls(x, pow(2, -1, T.p))),
        "FP2_mul_ip": o(lambda T, x, y, s, n: T.f2mulxi(x)),          # * (1+i)
        "FP2_div_ip": o(lambda T, x, y, s, n: T.f2mul(x, T.f2inv((1, 1)))),  # / (1+i)
    }
    return inputs, outputs


def kind_fp4():
    f4 = lambda T, v: tuple(T.f2(*c) for c in v)
    names = ["FP4_1", "FP4_2", "FP12_1", "FP12_2", "FP12_3", "FP12_4"]
    inputs = {k: parse_value for k in names + ["FP2sc", "BIGsc1", "BIGsc2"]}

    def o(f):
        def run(T, v, n):
            x = {k: f4(T, v[k]) for k in names}
            return fmt(f(T, x, v, n))
        return run

    outputs = {
        "FP4add": o(lambda T, x, v, n: T.f4add(x["FP4_1"], x["FP4_2"])),
        "FP4neg": o(lambda T, x, v, n: T.f4neg(x["FP4_1"])),
        "FP4sub": o(lambda T, x, v, n: T.f4sub(x["FP4_1"], x["FP4_2"])),
        "FP4conj": o(lambda T, x, v, n: T.f4conj(x["FP4_1"])),
        "FP4nconj": o(lambda T, x, v, n: T.f4nconj(x["FP4_1"])),
        "FP4pmul": o(lambda T, x, v, n: T.f4pmul(x["FP4_1"], T.f2(*v["FP2sc"]))),
        "FP4imul": o(lambda T, x, v, n: T.f4imul(x["FP4_1"], n - 1)),
        "FP4sqr": o(lambda T, x, v, n: T.f4mul(x["FP4_1"], x["FP4_1"])),
        "FP4mul": o(lambda T, x, v, n: T.f4mul(x["FP4_1"], x["FP4_2"])),
        "FP4inv": o(lambda T, x, v, n: T.f4inv(x["FP4_1"])),
        "FP4mulj": o(lambda T, x, v, n: T.f4times_s(x["FP4_1"])),
        "FP4pow": o(lambda T, x, v, n: T.f4pow(x["FP4_1"], v["BIGsc1"])),
        "FP4frob": o(lambda T, x, v, n: T.f4frob(x["FP4_1"])),
        # xtr_A(w, x, y, z) with w = FP4_1, x = FP4_2, y = FP4add, z = FP4sub
        "FP4_xtrA": o(lambda T, x, v, n: T.xtr_A(
            x["FP4_1"], x["FP4_2"], T.f4add(x["FP4_1"], x["FP4_2"]), T.f4sub(x["FP4_1"], x["FP4_2"]))),
        "FP4_xtrD": o(lambda T, x, v, n: T.xtr_D(x["FP4_1"])),
        "FP4_xtrpow": o(lambda T, x, v, n: T.xtr_pow(x["FP12_1"], v["BIGsc1"])),
        "FP4_xtrpow2": o(lambda T, x, v, n: T.xtr_pow2(
            x["FP12_1"], x["FP12_2"], x["FP12_3"], x["FP12_4"], v["BIGsc2"], v["BIGsc1"])),
    }
    return inputs, outputs


def kind_fp12():
    f12 = lambda T, v: tuple(tuple(T.f2(*c) for c in f) for f in v)
    names = ["FP12_1", "FP12_2", "FP12_3", "FP12_4", "FP12_c"]
    inputs = {k: parse_value for k in names + ["BIGsc1", "BIGsc2", "BIGsc3", "BIGsc4", "BIGscs", "BIGsco"]}

    def o(f):
        def run(T, v, n):
            x = {k: f12(T, v[k]) for k in names}
            return fmt(f(T, x, v, n))
        return run

    def y_dtype(T, x):  # a line value for a D-type twist: c = 0, b.b = 0
        f = x["FP12_2"]
        return (f[0], (f[1][0], (0, 0)), ((0, 0), (0, 0)))

    def y_mtype(T, x):  # for an M-type twist: b = 0, c.a = 0
        f = x["FP12_2"]
        return (f[0], ((0, 0), (0, 0)), ((0, 0), f[2][1]))

    def pow4(T, x, v):
        r = T.f12one()
        for k in range(1, 5):
            r = T.f12mul(r, T.f12pow(x["FP12_%d" % k], v["BIGsc%d" % k]))
        return r

    outputs = {
        "FP12smul_y_dtype": o(lambda T, x, v, n: y_dtype(T, x)),
        "FP12smul_y_mtype": o(lambda T, x, v, n: y_mtype(T, x)),
        "FP12smul_dtype": o(lambda T, x, v, n: T.f12mul(x["FP12_1"], y_dtype(T, x))),
        "FP12smul_mtype": o(lambda T, x, v, n: T.f12mul(x["FP12_1"], y_mtype(T, x))),
        "FP12mul": o(lambda T, x, v, n: T.f12mul(x["FP12_1"], x["FP12_2"])),
        "FP12inv": o(lambda T, x, v, n: T.f12inv(x["FP12_1"])),
        "FP12frob": o(lambda T, x, v, n: T.f12frob(x["FP12_1"])),
        "FP12conj": o(lambda T, x, v, n: T.f12conj(x["FP12_1"])),
        "FP12usquare": o(lambda T, x, v, n: T.f12mul(x["FP12_1"], x["FP12_1"])),  # FP12_1 is unitary
        "FP12square": o(lambda T, x, v, n: T.f12mul(x["FP12_1"], x["FP12_1"])),
        "FP12pow": o(lambda T, x, v, n: T.f12pow(x["FP12_1"], v["BIGsc1"])),
        "FP12pinpow": o(lambda T, x, v, n: T.f12pow(x["FP12_1"], n)),  # to the test number
        "FP12compows": o(lambda T, x, v, n: T.compow(x["FP12_c"], v["BIGscs"], v["BIGsco"])),
        "FP12compow": o(lambda T, x, v, n: T.compow(x["FP12_c"], v["BIGsc1"], v["BIGsco"])),
        "FP12pow4": o(lambda T, x, v, n: pow4(T, x, v)),
        "FP4trace": o(lambda T, x, v, n: T.trace(x["FP12_1"])),
    }
    return inputs, outputs


def kind_ecp():
    inputs = {"ECP1": parse_g1, "ECP2": parse_g1, "BIGscalar1": parse_value,
              "BIGscalar2": parse_value, "ECPwrong": parse_g1}

    def o(f):
        return lambda T, v, n: f(T, v["ECP1"], v["ECP2"], v["BIGscalar1"], v["BIGscalar2"])

    def wrong(T, v, n):  # ECP_set(x, y) must fail: the pair is not on the curve
        return fmt_g1(v["ECPwrong"]) if not T.g1on(v["ECPwrong"]) else "(a point on the curve)"

    outputs = {
        "ECPsum": o(lambda T, P, Q, a, b: fmt_g1(T.g1add(P, Q))),
        "ECPneg": o(lambda T, P, Q, a, b: fmt_g1(T.g1neg(P))),
        "ECPsub": o(lambda T, P, Q, a, b: fmt_g1(T.g1add(P, T.g1neg(Q)))),
        "ECPdbl": o(lambda T, P, Q, a, b: fmt_g1(T.g1add(P, P))),
        "ECPmul": o(lambda T, P, Q, a, b: fmt_g1(T.g1mul(P, a))),
        "ECPpinmul": o(lambda T, P, Q, a, b: fmt_g1(T.g1mul(P, 1234))),  # ECP_pinmul(P, 1234, 14)
        "ECPmul2": o(lambda T, P, Q, a, b: fmt_g1(T.g1add(T.g1mul(P, a), T.g1mul(Q, b)))),
        "ECPwrong": wrong,
        "ECPinf": lambda T, v, n: "00:01",  # AMCL's raw infinity (x = 0, y = 1, z = 0)
        "ECPeven": o(lambda T, P, Q, a, b: fmt_g1(T.g1setx(P[0], 0))),
        "ECPodd": o(lambda T, P, Q, a, b: fmt_g1(T.g1setx(P[0], 1))),
    }
    return inputs, outputs


def kind_ecp2():
    g2 = lambda T, P: tuple(T.f2(*c) for c in P)
    inputs = {"ECP21": parse_g2, "ECP22": parse_g2, "ECP23": parse_g2, "ECP24": parse_g2,
              "BIGscalar1": parse_value, "BIGscalar2": parse_value, "BIGscalar3": parse_value,
              "BIGscalar4": parse_value, "ECP2wrong": parse_g2}

    def o(f):
        def run(T, v, n):
            Q = [g2(T, v["ECP2%d" % k]) for k in range(1, 5)]
            s = [v["BIGscalar%d" % k] for k in range(1, 5)]
            return fmt_g2(f(T, Q, s))
        return run

    def mul4(T, Q, s):
        R = None
        for k in range(4):
            R = T.g2add(R, T.g2mul(Q[k], s[k]))
        return R

    def wrong(T, v, n):
        P = g2(T, v["ECP2wrong"])
        return fmt_g2(P) if not T.g2on(P) else "(a point on the curve)"

    outputs = {
        "ECP2sum": o(lambda T, Q, s: T.g2add(Q[0], Q[1])),
        "ECP2neg": o(lambda T, Q, s: T.g2neg(Q[0])),
        "ECP2sub": o(lambda T, Q, s: T.g2add(Q[0], T.g2neg(Q[1]))),
        "ECP2dbl": o(lambda T, Q, s: T.g2add(Q[0], Q[0])),
        "ECP2mul": o(lambda T, Q, s: T.g2mul(Q[0], s[0])),
        "ECP2mul4": o(mul4),
        "ECP2set1": o(lambda T, Q, s: T.g2setx(Q[0][0])),
        "ECP2set2": o(lambda T, Q, s: T.g2neg(T.g2setx(Q[0][0]))),
        "ECP2wrong": wrong,
        "ECP2inf": lambda T, v, n: "00:00&01:00",
    }
    return inputs, outputs


KINDS = {"fp": kind_fp, "fp2": kind_fp2, "fp4": kind_fp4, "fp12": kind_fp12,
         "ecp": kind_ecp, "ecp2": kind_ecp2}


# ---------------------------------------------------------------------------------------------

def check_file(path, kind, curve, verbose=False):
    T = Tower(curve)
    inputs, outputs = KINDS[kind]()
    passed = failed = 0
    messages = []
    for block in read_blocks(path):
        fields, n = block["_fields"], block["_number"]
        problems = []
        try:
            values = {k: parse(fields[k]) for k, parse in inputs.items() if k in fields}
            missing = [k for k in inputs if k not in fields and k != "ECPwrong" and k != "ECP2wrong"]
            if missing:
                problems.append("missing input(s) %s" % ", ".join(missing))
            for key, text in fields.items():
                if key in outputs:
                    want = outputs[key](T, values, n)
                    if want != text:
                        problems.append("%s: expected %s, file has %s" % (key, want, text))
                elif key not in inputs:
                    problems.append("%s: unexplained field" % key)
        except Exception as exc:  # malformed value, missing input ...
            problems.append("error %r" % exc)
        if problems:
            failed += 1
            messages += ["  test %d (line %d): %s" % (n, block["_line"], m) for m in problems]
        else:
            passed += 1
    return passed, failed, messages


def main(argv):
    verbose = "-v" in argv
    args = [a for a in argv[1:] if a != "-v"]
    repository = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    default = os.path.join(os.path.dirname(repository), "shared", "vectors", "amcl", "arith")
    root = args[0] if args else default
    if not os.path.isdir(root):
        print("%s: no such folder (AMCL's arithmetic vectors are read from ../shared/vectors/amcl/arith)" % root,
              file=sys.stderr)
        return 2
    total_failed = 0
    for kind in ["fp", "fp2", "fp4", "fp12", "ecp", "ecp2"]:
        for curve in ["BN254CX", "BN254"]:
            path = os.path.join(root, kind, "test_vector_%s.txt" % curve)
            if not os.path.exists(path):
                print("%-28s missing" % (kind + "/" + os.path.basename(path)))
                total_failed += 1
                continue
            ok, bad, messages = check_file(path, kind, curve, verbose)
            total_failed += bad
            print("%-28s %d passed / %d failed" % (kind + "/" + os.path.basename(path), ok, bad))
            for m in messages if verbose or bad else []:
                print(m)
    return 0 if total_failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
