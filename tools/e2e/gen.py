#!/usr/bin/env python3
"""End-to-end verification, step 1 (runs here): translate every corpus file with
`--emit replace --target portable`, and write for each file a harness that launches its
`__global__` kernel over deterministic pseudo-random buffers and dumps every buffer afterwards.
Step 2 (`run.sh`, on an NVIDIA GPU) builds each harness twice — against the original file and
against the translation — runs both and compares the dumps bit for bit.

Files with warp-collective PTX (shuffles, matrix fragments, mma), which only `--target amd`
translates, also get their `--target amd` translation built for the NVIDIA GPU through
crates/ptx2hip-verify/shim/amd_on_cuda.cuh (the AMD builtins those translations call, written with
CUDA warp functions: the GPU runs the code as a wave32 AMD wave would), and compared the same way:
the exact matrix emulation runs against the real tensor cores.

Usage: tools/e2e/gen.py STAGING_DIR   (then copy STAGING_DIR to the GPU machine and run run.sh)
"""
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
N = 4096           # elements per logical array; threads cover 2N
SLACK = 64         # buffers hold SLACK*N elements: kernels read in[4*i+3] and write up to 64 results per thread

# A kernel, with its block size when __launch_bounds__ caps it (a warpgroup kernel: 128).
KERNEL = re.compile(r"__global__\s+void\s+(?:__launch_bounds__\s*\(\s*(\d+)[^)]*\)\s*)?(\w+)\s*\(([^)]*)\)", re.S)
# Warp-collective PTX: translated for --target amd only.
WARP_COLLECTIVE = re.compile(r"\b(wgmma|mma|ldmatrix|stmatrix|movmatrix|shfl|vote|match|redux|elect)\.")
# AMD helper definitions nvcc cannot compile (clang vector types, AMD address spaces, clang's
# elementwise and f16 builtins, _Float16 arithmetic): the shimmed build takes their portable
# definitions where they have one, which the portable end-to-end run checks on their own. The
# tensor model's helpers (AMD only) convert through _Float16, which the shim maps to __half.
CLANG_ONLY = ("ext_vector_type", "vector_size", "address_space", "__builtin_elementwise", "__builtin_fmaf16",
              "_Float16")
# Corpus files no GPU here can run as written, with the reason (their translations are checked
# otherwise).
NOT_RUN = {
    "blackwell_numerics.cu": "sm_100 forms: the original compiles its kernel for sm_100 only, which no "
    "GPU here runs (the rules rest on their ISA decomposition: docs/EVIDENCE.md)",
}
SHIM = os.path.join(ROOT, "crates", "ptx2hip-verify", "shim", "amd_on_cuda.cuh")


def portable_section(name):
    """The portable definition of helper `name` as rules/helpers/*.h writes it."""
    helpers = os.path.join(ROOT, "rules", "helpers")
    for f in sorted(os.listdir(helpers)):
        lines = open(os.path.join(helpers, f)).read().split("\n")
        for i, line in enumerate(lines):
            if line.split()[:2] == ["//", "ptx2hip:helper"] and line.split()[2] == name:
                body = []
                for l in lines[i + 1:]:
                    if l.startswith("// ptx2hip:amd") or l.startswith("// ptx2hip:end"):
                        return "\n".join(body).strip("\n")
                    body.append(l)
    raise SystemExit(f"no helper {name}")


# AMD-only helpers nvcc cannot compile, as the same operations in CUDA: LDS accesses through
# CUDA's shared window, and (below) the tensor model's 16-bit lane pairs.
NVCC_SHIMS = {
    "ptx2hip_lds_load_u32": "__device__ inline uint32_t ptx2hip_lds_load_u32(uint32_t off) {\n"
    "  return *(const uint32_t*)__cvta_shared_to_generic(off);\n}",
    "ptx2hip_lds_load_u16": "__device__ inline uint32_t ptx2hip_lds_load_u16(uint32_t off) {\n"
    "  return *(const uint16_t*)__cvta_shared_to_generic(off);\n}",
    "ptx2hip_lds_load_u32x4": "struct alignas(16) ptx2hip_lds_u32x4 {\n  uint32_t w[4];\n};\n"
    "__device__ inline void ptx2hip_lds_load_u32x4(uint32_t off, uint32_t* w) {\n"
    "  const ptx2hip_lds_u32x4 v = *(const ptx2hip_lds_u32x4*)__cvta_shared_to_generic(off);\n"
    "  for (int i = 0; i < 4; ++i) w[i] = v.w[i];\n}",
    "ptx2hip_lds_store_u32": "__device__ inline void ptx2hip_lds_store_u32(uint32_t off, uint32_t v) {\n"
    "  *(uint32_t*)__cvta_shared_to_generic(off) = v;\n}",
    "ptx2hip_lds_store_u16": "__device__ inline void ptx2hip_lds_store_u16(uint32_t off, uint32_t v) {\n"
    "  *(uint16_t*)__cvta_shared_to_generic(off) = (uint16_t)v;\n}",
}


# The packed NaN canonicalisation of the half helpers works on GCC vector lanes: the same with
# 32-bit integer operations.
NVCC_SHIMS["ptx2hip_h2_canon_nan"] = (
    "__device__ inline uint32_t ptx2hip_h2_canon_nan(uint32_t u, bool bf) {\n"
    "  uint32_t t = (u & 0x7fff7fffu) + (bf ? 0x007f007fu : 0x03ff03ffu);\n"
    "  uint32_t nan_mask = ((t & 0x8000u) ? 0xffffu : 0u) | ((t & 0x80000000u) ? 0xffff0000u : 0u);\n"
    "  return (u & ~nan_mask) | (0x7fff7fffu & nan_mask);\n}")


# The tensor model's 16-bit lane pairs are clang/GCC vectors, which nvcc refuses in device code:
# the same operations with CUDA's SIMD intrinsics.
NVCC_SHIMS["ptx2hip_tc_u16x2"] = (
    "__device__ inline uint32_t ptx2hip_tc_max_u16x2(uint32_t a, uint32_t b) { return __vmaxu2(a, b); }\n"
    "template <int S>\n"
    "__device__ inline uint32_t ptx2hip_tc_shr_u16x2(uint32_t a) {\n"
    "  return ((a & 0xffffu) >> S) | (((a >> 16) >> S) << 16);\n}")


def shimmed(text):
    """An --target amd translation made buildable by nvcc with the shim."""
    def swap(m):
        body = m.group(3)
        if m.group(2) in NVCC_SHIMS:
            return m.group(1) + NVCC_SHIMS[m.group(2)] + m.group(4)
        if any(t in body for t in CLANG_ONLY):
            portable = portable_section(m.group(2))
            if portable.strip():
                body = portable
        return m.group(1) + body + m.group(4)
    text = re.sub(r"(#define PTX2HIP_HELPER_(\w+)\n)(.*?)(\n#endif)", swap, text, flags=re.S)
    return '#include "amd_on_cuda.cuh"\n' + text


def params(text):
    out = []
    for p in text.split(","):
        p = " ".join(p.replace("__restrict__", "").split())
        m = re.match(r"(const\s+)?(.+?)\s*\*\s*(\w+)$", p)
        if m:
            out.append(("ptr", m.group(2).strip(), m.group(3)))
        else:
            name = p.split()[-1]
            out.append(("int", p.rsplit(" ", 1)[0], name))
    return out


def harness(name, kernel, ps, block=256):
    lines = [
        "#include <cstdio>",
        "#include <cstdint>",
        "#include <cstdlib>",
        "#include <cstring>",
        "#include <vector>",
        "#include CORPUS_FILE",
        "static uint64_t rng = 0x9e3779b97f4a7c15ull;",
        "static uint64_t next() { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }",
        "int main(int argc, char** argv) {",
        f"  const int n = {N};",
        "  FILE* dump = fopen(argv[1], \"wb\");",
        "  if (!dump) return 2;",
    ]
    args = []
    for k, (kind, ty, pname) in enumerate(ps):
        if kind == "int":
            args.append("n")
            continue
        lines += [
            f"  size_t bytes{k} = sizeof({ty}) * (size_t)n * {SLACK};",
            f"  std::vector<unsigned char> h{k}(bytes{k});",
        ]
        if re.search(r"ind|idx", pname) and re.match(r"(unsigned\s+)?int|int32_t|uint32_t", ty):
            # Indices: in range or negative (the predicated path), never out of bounds.
            lines.append(f"  for (size_t i = 0; i < bytes{k} / 4; ++i) {{ int v = (int)(next() % (n + 4)) - 4; memcpy(&h{k}[4 * i], &v, 4); }}")
        else:
            lines.append(f"  for (size_t i = 0; i < bytes{k}; ++i) h{k}[i] = (unsigned char)(next() >> 24);")
        lines += [
            f"  void* d{k}; if (cudaMalloc(&d{k}, bytes{k}) != cudaSuccess) return 3;",
            f"  cudaMemcpy(d{k}, h{k}.data(), bytes{k}, cudaMemcpyHostToDevice);",
        ]
        args.append(f"({ty}*)d{k}")
    lines += [
        f"  {kernel}<<<(2 * n + {block - 1}) / {block}, {block}>>>({', '.join(args)});",
        "  cudaError_t e = cudaDeviceSynchronize();",
        "  if (e != cudaSuccess) { fprintf(stderr, \"%s\\n\", cudaGetErrorString(e)); return 4; }",
    ]
    for k, (kind, ty, pname) in enumerate(ps):
        if kind == "ptr":
            lines += [
                f"  cudaMemcpy(h{k}.data(), d{k}, bytes{k}, cudaMemcpyDeviceToHost);",
                f"  fwrite(h{k}.data(), 1, bytes{k}, dump);",
            ]
    lines += ["  fclose(dump);", "  return 0;", "}"]
    return "\n".join(lines) + "\n"


def main():
    out = os.path.abspath(sys.argv[1])
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(os.path.join(out, "orig"))
    os.makedirs(os.path.join(out, "trans"))
    os.makedirs(os.path.join(out, "amd"))
    shutil.copy(SHIM, out)
    subprocess.run(["cargo", "build", "--release", "-q"], cwd=ROOT, check=True)
    tool = os.path.join(ROOT, "target", "release", "ptx2hip")
    corpus = os.path.join(ROOT, "corpus")
    files = sorted(f for f in os.listdir(corpus) if f.endswith((".cu", ".cuh")))
    manifest = []
    for f in files:
        src = os.path.join(corpus, f)
        shutil.copy(src, os.path.join(out, "orig", f))
        subprocess.run([tool, "translate", "--emit", "replace", "--target", "portable",
                        "--out-dir", os.path.join(out, "trans"), src], check=True)
        findings = json.loads(subprocess.run([tool, "check", "--format", "json", "--target", "portable", src],
                                             capture_output=True, text=True).stdout)
        text = open(src, encoding="utf-8", errors="replace").read()
        m = KERNEL.search(text)
        if not m:
            continue
        if f in NOT_RUN:
            print(f"{f}: not run: {NOT_RUN[f]}")
            continue
        name = os.path.splitext(f)[0]
        with open(os.path.join(out, f"harness_{name}.cu"), "w") as h:
            h.write(harness(name, m.group(2), params(m.group(3)), int(m.group(1) or 256)))
        entry = {
            "file": f,
            "harness": f"harness_{name}.cu",
            "statements": len(findings),
            "translated": sum(1 for x in findings if x["status"] == "translatable"),
        }
        if WARP_COLLECTIVE.search(text):
            staged = os.path.join(out, "amd", f)
            subprocess.run([tool, "translate", "--emit", "replace", "--target", "amd", "--out-dir",
                            os.path.join(out, "amd"), src], check=True)
            with open(staged) as t:
                translated = t.read()
            with open(staged, "w") as t:
                t.write(shimmed(translated))
            amd_findings = json.loads(subprocess.run([tool, "check", "--format", "json", "--target", "amd", src],
                                                     capture_output=True, text=True).stdout)
            entry["amd_translated"] = sum(1 for x in amd_findings if x["status"] == "translatable")
        manifest.append(entry)
    with open(os.path.join(out, "manifest.json"), "w") as m:
        json.dump(manifest, m, indent=1)
    shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), "run.sh"), out)
    print(f"{len(manifest)} harnesses in {out}")


if __name__ == "__main__":
    main()
