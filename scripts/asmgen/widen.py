"""Generates AVX-512 twins of AVX2 kernels: the same instructions in the same
order on eight lanes instead of four (so the same bits per lane). Each twin is
derived from its AVX2 function's text:

  - registers Yn become Zn (Xn, used for scalar moves, are refused);
  - a constant table of four copies per constant becomes one of eight
    copies, its offsets doubled;
  - displacements from the base registers named per function (pointers to
    blocks of four lanes per value) are doubled;
  - the immediates added to the step registers named per function (byte
    offsets advanced by a block of four lanes) are doubled;
  - the loop-invariant operands named per function (constants, blocks of
    weights) are loaded into registers before the loop, from Z16 on, and
    read from there (hoist below): read in the loop, 64 bytes each from a
    table the linker aligns to 32 bytes or a Go stack array aligned to 8,
    they straddled two lines, and those loads bounded the loops on a Zen 5
    (the same operations on the same values: the same bits);
  - other lines are kept as they are.

Run with `go generate ./core/nn` (or python3 scripts/asmgen/widen.py); the
output is committed, so a build needs no Python."""
import os, re

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

# (source file, function, new name, constant tables, base registers whose
# displacements double, step registers whose ADDQ immediates double,
# loop-invariant operands (after widening) to hoist into registers, doc)
JOBS = {
    "core/nn/one512_amd64.s": [
        ("core/nn/one_amd64.s", "backward2Asm", "backward2Asm512", ["b2c"], ["AX", "BX", "R9"], [],
         ["0(AX)", "64(AX)", "128(AX)", "192(AX)", "256(AX)", "0(R9)", "64(R9)"],
         "the loop of backward2Vector512 (one512_simd.go): backward2Asm on\n// eight units, each lane one unit"),
    ],
    "core/nn/adam512_amd64.s": [
        ("core/nn/adam_amd64.s", "adamAsm", "adamAsm512", [], [], ["R8"], [],
         "the loop of adamVector (adam_simd.go) on the AVX-512 path: adamAsm on\n// eight parameters (n a multiple of 8), each lane one parameter"),
    ],
}


def tables(text, name):
    vals = {}
    for off, val in re.findall(rf"DATA {name}<>\+(\d+)\(SB\)/8, \$(0x[0-9a-f]+)", text):
        off = int(off)
        if off % 32 == 0:
            vals[off] = val
        elif vals[off - off % 32] != val:
            raise SystemExit(f"{name}+{off}: not four copies of one constant")
    return vals


def function(text, name):
    start = text.index(f"TEXT ·{name}(SB)")
    end = text.index("\tRET", start) + len("\tRET")
    return text[start:end]


def widen(body, name, new, consts, bases, steps):
    out = []
    for line in body.splitlines():
        if line.startswith("TEXT "):
            out.append(line.replace(f"·{name}(SB)", f"·{new}(SB)"))
            continue
        code, sep, comment = line.partition("//")
        if re.search(r"\bX\d+\b", code):
            raise SystemExit(f"{name}: scalar register in {line!r}")
        code = re.sub(r"\bY(\d+)\b", r"Z\1", code)
        for c in consts:
            code = re.sub(rf"\b{c}<>\+(\d+)\(SB\)", lambda m: f"{c}8<>+{2*int(m.group(1))}(SB)", code)
            code = re.sub(rf"\b{c}<>\(SB\)", f"{c}8<>(SB)", code)
        for r in bases:
            code = re.sub(rf"(?<![\w+])(-?\d+)\({r}\)", lambda m: f"{2*int(m.group(1))}({r})", code)
        for r in steps:
            code = re.sub(rf"\bADDQ(\s+)\$(\d+), {r}\b", lambda m: f"ADDQ{m.group(1)}${2*int(m.group(2))}, {r}", code)
        out.append(code + sep + comment)
    return "\n".join(out)


def hoist(lines, operands, first=16, label="loop"):
    """Reads the loop-invariant memory operands in the loop from label on
    from registers Z{first}, Z{first+1}, ..., loaded just before the label;
    before each VZEROUPPER, zeroes those of them from Z16 on (VZEROUPPER
    clears the upper halves of Z0-Z15 only, and dirty upper halves cost
    Intel CPUs on every later legacy-SSE instruction, Go's scalar floating
    point). Refuses an operand that the loop writes (a destination: the
    last operand in Go's order) or one that is not in it. lines are the
    function's lines; returns them changed."""
    regs = {op: f"Z{first + i}" for i, op in enumerate(operands)}
    if first + len(operands) > 32:
        raise SystemExit(f"hoist: {len(operands)} operands from Z{first} do not fit")
    start = lines.index(f"{label}:")
    used = set()
    out = lines[:start]
    for op, z in regs.items():
        out.append(f"\tVMOVUPD {op}, {z}")
    out.append("")
    for line in lines[start:]:
        code, sep, comment = line.partition("//")
        if code.strip() == "VZEROUPPER":
            for op, z in regs.items():
                if int(z[1:]) >= 16:
                    out.append(f"\tVPXORQ  {z}, {z}, {z}")
            out.append(line)
            continue
        args = [a.strip() for a in code.strip().partition(" ")[2].split(",")]
        for op, z in regs.items():
            if op in args:
                if args[-1] == op:
                    raise SystemExit(f"hoist: the loop writes {op}: {line!r}")
                used.add(op)
                code = re.sub(rf"(?<![\w+(]){re.escape(op)}", z, code)
        out.append(code + sep + comment)
    if used != set(regs):
        raise SystemExit(f"hoist: not in the loop: {sorted(set(regs) - used)}")
    return out


def main():
    for dst, jobs in JOBS.items():
        L = ["// Code generated by scripts/asmgen/widen.py; DO NOT EDIT.", "",
             "//go:build amd64 && !purego", "", '#include "textflag.h"', ""]
        done = set()
        for src, name, new, consts, bases, steps, inv, doc in jobs:
            text = open(os.path.join(root, src)).read()
            for c in consts:
                if c in done:
                    continue
                done.add(c)
                vals = tables(text, c)
                for off, val in sorted(vals.items()):
                    for i in range(8):
                        L.append(f"DATA {c}8<>+{2*off + 8*i}(SB)/8, ${val}")
                L.append(f"GLOBL {c}8<>(SB), RODATA|NOPTR, ${2*(max(vals) + 32)}")
                L.append("")
            L.append(f"// {new} is {doc}, the")
            L.append(f"// instructions of {name} ({os.path.basename(src)}) on eight lanes.")
            body = widen(function(text, name), name, new, consts, bases, steps)
            if inv:
                body = "\n".join(hoist(body.split("\n"), inv))
            L.append(body)
            L.append("")
        open(os.path.join(root, dst), "w").write("\n".join(L))


if __name__ == "__main__":
    main()
