"""formatting: the number formats and the markdown table writer shared by the scripts that make pages.

Sizes:   pow2(1 << 20) -> "2^20"; pow2(n, other) formats the sizes that are not powers of two
         (str, commas, e_rounded, e_exact); fmt_n_long(1 << 20) -> "1,048,576 (2^20)".
Times:   fmt_us(12.345) -> "12.35", fmt_us(12345.6) -> "12,346".
Ratios:  fmt_ratio(1.234) -> "1.23", fmt_ratio(0.01234) -> "0.012"; fmt_g2(1.5e-7) -> "1.5e-07".
Tables:  md_table(header, rows, align="lrr") -> the lines of a markdown table.

Standard library only: scripts/regress imports it and must run on a python3 without site-packages.
"""


def is_pow2(n):
    return n > 0 and n & (n - 1) == 0


def pow2(n, other=str):
    """n as 2^k where it is a power of two, else other(n)."""
    return "2^{}".format(n.bit_length() - 1) if is_pow2(n) else other(n)


def commas(n):
    """1000000 -> "1,000,000"."""
    return "{:,}".format(n)


def e_rounded(n):
    """n to one significant digit: 1000000 -> "1e6", 1500000 -> "2e6", 10**10 -> "1e+10"."""
    return "{:.0e}".format(n).replace("e+0", "e")


def e_exact(n):
    """A multiple of a power of ten from 10^4 up as d e k (5 * 10**8 -> "5e8"); anything else in full."""
    if n >= 10000:
        e = len(str(n)) - 1
        if n % 10 ** e == 0:
            return "{}e{}".format(n // 10 ** e, e)
    return str(n)


def fmt_n_long(n):
    """The count with thousands separators, and 2^k after it where it is a power of two."""
    return "{} ({})".format(commas(n), pow2(n)) if is_pow2(n) else commas(n)


def fmt_us(t, large="{:,.0f}"):
    """A time in µs: two decimals below 1000 µs, else `large` (default: whole µs with separators)."""
    return "{:.2f}".format(t) if t < 1000 else large.format(t)


def fmt_ratio(v):
    """Two decimals; two significant digits below 0.1, where two decimals would say 0.00."""
    return "{:.2f}".format(v) if v >= 0.1 else "{:.2g}".format(v)


def fmt_gbps(x):
    """GB/s: one decimal below 100, none from 100 up."""
    return "{:.1f}".format(x) if x < 100 else "{:.0f}".format(x)


def fmt_g2(v, missing="–"):
    """Two significant digits, or `missing` for None."""
    return missing if v is None else "{:.2g}".format(v)


def md_row(cells):
    return "| " + " | ".join(str(c) for c in cells) + " |"


RULES = {"l": "---", "r": "---:", "c": ":---:"}


def md_table(header, rows, align="", pad=False):
    """The lines of a markdown table: header, rule, then one line per row.

    align: a letter per column, l (markdown's default, left), r (right) or c (centre); columns past
    its end are l. pad: cells padded to their column's width so that the text lines up as plain
    text too. Raises ValueError on a row whose length is not the header's."""
    header = [str(h) for h in header]
    rows = [[str(c) for c in r] for r in rows]
    for r in rows:
        if len(r) != len(header):
            raise ValueError("md_table: a row of {} cells under a header of {}: {}".format(len(r), len(header), r))
    kinds = [align[i] if i < len(align) else "l" for i in range(len(header))]
    if any(k not in RULES for k in kinds):
        raise ValueError("md_table: align takes l, r or c, not {!r}".format(align))
    if not pad:
        return [md_row(header), "|" + "".join(RULES[k] + "|" for k in kinds)] + [md_row(r) for r in rows]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]

    def line(cells):
        return md_row({"l": c.ljust, "r": c.rjust, "c": c.center}[k](w) for c, w, k in zip(cells, widths, kinds))

    # A rule cell spans its column's width plus the two spaces around each cell.
    rule = {"l": lambda w: "-" * (w + 2), "r": lambda w: "-" * (w + 1) + ":", "c": lambda w: ":" + "-" * w + ":"}
    return [line(header), "|" + "|".join(rule[k](w) for k, w in zip(kinds, widths)) + "|"] + [line(r) for r in rows]
