"""Compiling a side for an AMD processor and counting its functions' instructions."""

import re
import subprocess
from pathlib import Path

ARCHS = {
    # Device libraries as isa_count links them (Debian's rocm-device-libs have no gfx942 or gfx1100
    # ISA-version file: gfx940's and gfx1030's stand in, as in isa_count.rs and its warp.rs).
    "gfx942": ["oclc_isa_version_940", "oclc_wavefrontsize64_on"],
    "gfx1100": ["oclc_isa_version_1030", "oclc_wavefrontsize64_off"],
}


COMMON_LIBS = [
    "ocml",
    "ockl",
    "oclc_daz_opt_off",
    "oclc_unsafe_math_off",
    "oclc_finite_only_off",
    "oclc_correctly_rounded_sqrt_on",
    "oclc_abi_version_500",
]


def clang_command(clang, devlibs, arch, src, asm, includes=()):
    cmd = [clang, "-x", "hip", "-std=c++17", f"--offload-arch={arch}", "--cuda-device-only",
           "-nogpulib", "-O3", "-S", "-w"] + [f"-I{d}" for d in includes]
    for lib in COMMON_LIBS + ARCHS[arch]:
        cmd += ["-Xclang", "-mlink-builtin-bitcode", "-Xclang", str(Path(devlibs) / f"{lib}.bc")]
    return cmd + [str(src), "-o", str(asm)]


def compile_file(clang, devlibs, arch, src, asm, includes=()):
    r = subprocess.run(clang_command(clang, devlibs, arch, src, asm, includes), capture_output=True, text=True)
    return r.returncode == 0, r.stderr


def count(asm):
    """isa_count's rule (crates/ptx2hip-verify/src/bin/isa_count.rs, `count`): the machine
    instructions between a `p2h_fN:` label and the next `.Lfunc_end` label, minus the
    `s_setpc_b64` return(s) and the `s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)` that the calling
    convention puts first in every non-kernel function; directives, labels and comments are not
    instructions. Static: a loop body counts once. Returns {N: (count, [called symbols])}."""
    counts = {}
    current = None  # [index, count, started, calls]
    for raw in asm.split("\n"):
        line = raw.split(";")[0].strip()
        if line.endswith(":"):
            name = line[:-1]
            m = re.fullmatch(r"p2h_f(\d+)", name)
            if m:
                current = [int(m.group(1)), 0, False, []]
            elif name.startswith(".Lfunc_end") and current:
                counts[current[0]] = (current[1], current[3])
                current = None
            continue
        if current is None or not line or line.startswith("."):
            continue
        mnemonic = line.split()[0]
        entry_wait = not current[2] and line == "s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)"
        current[2] = True
        for word in re.split(r"[ ,]", line):
            if word.endswith("@rel32@lo+4"):
                current[3].append(word[: -len("@rel32@lo+4")])
        if entry_wait or mnemonic == "s_setpc_b64":
            continue
        current[1] += 1
    return counts


def function_asm(asm, n):
    m = re.search(rf"^p2h_f{n}:.*?^\.Lfunc_end\d+:", asm, re.S | re.M)
    return m.group(0) if m else ""
