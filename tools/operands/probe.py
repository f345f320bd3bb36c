#!/usr/bin/env python3
"""Operand-binding probe: what nvcc does with a C++ expression bound to an inline-asm constraint.

Writes one small CUDA file per case into STAGING_DIR plus `run.sh`. On a GPU machine, `run.sh`
compiles every case on its own (so a rejection is attributed to its case, with nvcc's message),
links the accepted ones into one program and runs it: one line per case,
`id<TAB>ok<TAB>first<TAB>second` (the bits seen, as hex numbers of the register's or the C++
object's size) or `id<TAB>rejected<TAB>message`. docs/OPERANDS.md records the results.

Cases:
  in.<L>.<type>     `asm("mov.bN %0, %1;" : "=L"(r) : "L"(x))` with x of <type>: the register bits
  out.<L>.<type>    `asm("mov.bN %0, %1;" : "=L"(y) : "L"(v))` with y of <type>: y's bytes
  inout.<L>.<type>  `"+L"(y)` through an xor: y's bytes
  n.<bits>.<name>   `"n"(constant)` into `mov.bN`
  ins.<name>        an instruction whose type and register sizes differ (narrow/wide destinations)

Usage: tools/operands/probe.py STAGING_DIR [NAME...]  (cases whose name contains a NAME; default all)
       (then on the GPU: cd STAGING_DIR && ./run.sh OUT_DIR)
       tools/operands/probe.py --merge OUT_DIR tests/operands
         writes tests/operands/nvcc_sm90.tsv (every case: how it is written, what nvcc did) and
         tests/operands/decls.h, which tests/it/operand_binding.rs checks the generated glue against;
         several OUT_DIRs (a later, partial run with `probe.py STAGING NAME...`) are merged in order.
"""
import os
import shutil
import sys

# Constraint letter -> (register C type, mov width, register bytes).
LETTERS = {
    "h": ("unsigned short", 16, 2),
    "r": ("unsigned int", 32, 4),
    "l": ("unsigned long long", 64, 8),
    "f": ("float", 32, 4),
    "d": ("double", 64, 8),
}

# name -> (C++ type, two host-side values)
TYPES = [
    ("bool", "bool", "true", "false"),
    ("char", "char", "(char)0x75", "(char)-11"),
    ("int8", "int8_t", "0x75", "-11"),
    ("uint8", "uint8_t", "0x75", "0xf5"),
    ("int16", "int16_t", "0x1234", "-11"),
    ("uint16", "uint16_t", "0x1234", "0xfff5"),
    ("int32", "int32_t", "0x12345678", "-11"),
    ("uint32", "uint32_t", "0x12345678u", "0xfffffff5u"),
    ("int64", "int64_t", "0x123456789abcdef0ll", "-11ll"),
    ("uint64", "uint64_t", "0x123456789abcdef0ull", "0xfffffffffffffff5ull"),
    ("float", "float", "1.5f", "-2.75f"),
    ("double", "double", "1.5", "-2.75"),
    ("half", "__half", "__half(1.5f)", "__half(-2.75f)"),
    ("bf16", "__nv_bfloat16", "__nv_bfloat16(1.5f)", "__nv_bfloat16(-2.75f)"),
    ("half2", "__half2", "__half2(__half(1.5f), __half(-2.75f))", "__half2(__half(-0.5f), __half(65504.f))"),
    ("bf162", "__nv_bfloat162", "__nv_bfloat162(__nv_bfloat16(1.5f), __nv_bfloat16(-2.75f))",
     "__nv_bfloat162(__nv_bfloat16(-0.5f), __nv_bfloat16(3.0f))"),
    ("uchar2", "uchar2", "make_uchar2(0x12, 0xf5)", "make_uchar2(0xf3, 0x04)"),
    ("short2", "short2", "make_short2(0x1234, -11)", "make_short2(-2, 0x7fff)"),
    ("ushort2", "ushort2", "make_ushort2(0x1234, 0xfff5)", "make_ushort2(0xfffe, 0x7fff)"),
    ("uchar4", "uchar4", "make_uchar4(1, 2, 0xf3, 0xf4)", "make_uchar4(0xff, 0x80, 0x7f, 0)"),
    ("char4", "char4", "make_char4(1, 2, -13, -12)", "make_char4(-1, -128, 127, 0)"),
    ("float2", "float2", "make_float2(1.5f, -2.75f)", "make_float2(-0.5f, 3.0f)"),
    ("int2", "int2", "make_int2(0x12345678, -11)", "make_int2(-2, 7)"),
    ("S2", "S2", "S2{0x12, 0xf5}", "S2{0xf3, 0x04}"),
    ("S4", "S4", "S4{0x12, 0xf5, 0xabcd}", "S4{0xf3, 0x04, 0x1234}"),
    ("S8", "S8", "S8{0x12345678u, 0xabcd, 0xf5f4}", "S8{0xfffffff5u, 1, 2}"),
    ("enum", "E", "EA", "EB"),
    ("enum_u8", "E8", "E8A", "E8B"),
    ("enumc", "EC", "EC::A", "EC::B"),
    ("enumc_s16", "ECs16", "ECs16::A", "ECs16::B"),
    ("enumc_u64", "ECu64", "ECu64::A", "ECu64::B"),
    ("ptr", "int*", "(int*)0x123456789abcull", "(int*)0xfffffff5ull"),
]

DECLS = r"""
struct S2 { uint8_t a, b; };
struct S4 { uint8_t a, b; uint16_t c; };
struct S8 { uint32_t a; uint16_t b, c; };
enum E { EA = 0x12345678, EB = -11 };
enum E8 : uint8_t { E8A = 0x75, E8B = 0xf5 };
enum class EC : int { A = 0x12345678, B = -11 };
enum class ECs16 : int16_t { A = 0x1234, B = -11 };
enum class ECu64 : uint64_t { A = 0x123456789abcdef0ull, B = 0xfffffffffffffff5ull };
struct BF { unsigned a : 12; int b : 5; unsigned c : 15; };
struct ToUnsigned { unsigned v; __host__ __device__ operator unsigned() const { return v ^ 1u; } };
struct ToFloat { float v; __host__ __device__ operator float() const { return v; } };
"""

PRELUDE = r"""#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
"""

RUNNER = r"""
void run_{cid}() {{
  unsigned char hin[128] = {{0}}, hout[64];
  {init}
  memset(hout, 0x5a, sizeof hout);
  unsigned char *din, *dout;
  cudaMalloc(&din, sizeof hin); cudaMalloc(&dout, sizeof hout);
  cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice);
  cudaMemcpy(dout, hout, sizeof hout, cudaMemcpyHostToDevice);
  ns_{cid}::k<<<1, 1>>>(din, dout);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {{ printf("{name}\truntime-error\t%s\n", cudaGetErrorString(e)); cudaGetLastError(); return; }}
  cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost);
  cudaFree(din); cudaFree(dout);
  printf("{name}\tok");
  for (int i = 0; i < 2; ++i) {{
    printf("\t0x");
    for (int b = {size} - 1; b >= 0; --b) printf("%02x", hout[32 * i + b]);
  }}
  printf("\n");
}}
"""


def values_init(ctype, v0, v1, offset=0):
    return (f"{{ {ctype} v[2] = {{{v0}, {v1}}}; memcpy(hin + {offset}, &v[0], sizeof v[0]); "
            f"memcpy(hin + 64 + {offset}, &v[1], sizeof v[1]); }}")


def case_file(cid, name, body, init, size):
    return (PRELUDE + f"namespace ns_{cid} {{\n{DECLS}\n"
            f"__global__ void k(const unsigned char* in, unsigned char* out) {{\n"
            f"  for (int i = 0; i < 2; ++i) {{\n{body}\n  }}\n}}\n}}\n"
            f"using namespace ns_{cid};\n"
            + RUNNER.format(cid=cid, name=name, init=init, size=size))


# Register values written to outputs: distinct bytes, top bit clear then set.
REG_VALUES = {
    "h": ("(unsigned short)0x3e12", "(unsigned short)0xc581"),
    "r": ("0x3fc01234u", "0xc0312345u"),
    "l": ("0x3ff8123456789abcull", "0xc00612345678abcdull"),
    "f": ("1.50056004524230957031f", "-2.76778531074523925781f"),
    "d": ("1.5044417713303123", "-2.7588960591945617"),
}


def cases():
    out = []
    for letter, (rt, bits, rbytes) in LETTERS.items():
        for tname, ctype, v0, v1 in TYPES:
            # input
            body = (f"    {ctype} x; memcpy((void*)&x, in + 64 * i, sizeof x);\n"
                    f"    {rt} r;\n"
                    f"    asm volatile(\"mov.b{bits} %0, %1;\" : \"={letter}\"(r) : \"{letter}\"(x));\n"
                    f"    memcpy(out + 32 * i, &r, sizeof r);")
            out.append((f"in.{letter}.{tname}", body, values_init(ctype, v0, v1), rbytes,
                        dict(dir="in", letter=letter, ctype=ctype, decl="", expr="x", v0=v0, v1=v1)))
            # output
            r0, r1 = REG_VALUES[letter]
            body = (f"    {rt} v; memcpy(&v, in + 64 * i, sizeof v);\n"
                    f"    {ctype} y; memset((void*)&y, 0xa5, sizeof y);\n"
                    f"    asm volatile(\"mov.b{bits} %0, %1;\" : \"={letter}\"(y) : \"{letter}\"(v));\n"
                    f"    memcpy(out + 32 * i, (const void*)&y, sizeof y);")
            out.append((f"out.{letter}.{tname}", body, values_init(rt, r0, r1), f"(int)sizeof({ctype})",
                        dict(dir="out", letter=letter, ctype=ctype, decl="", expr="y", v0=r0, v1=r1)))
    # Variants: references, const, volatile, bit-fields, in/out.
    variants = [
        ("in.r.uint8_const", "uint8_t", "0x75", "0xf5", "const uint8_t c = t;", "c", "r"),
        ("in.r.uint8_ref", "uint8_t", "0x75", "0xf5", "uint8_t& c = t;", "c", "r"),
        ("in.r.int8_cref", "int8_t", "0x75", "-11", "const int8_t& c = t;", "c", "r"),
        ("in.h.half_cref", "__half", "__half(1.5f)", "__half(-2.75f)", "const __half& c = t;", "c", "h"),
        ("in.r.short2_const", "short2", "make_short2(0x1234, -11)", "make_short2(-2, 0x7fff)", "const short2 c = t;", "c", "r"),
        ("in.r.float_ref", "float", "1.5f", "-2.75f", "float& c = t;", "c", "r"),
        ("in.r.int16_volatile", "int16_t", "0x1234", "-11", "volatile int16_t c = t;", "c", "r"),
        ("in.h.int32_expr", "int32_t", "0x12345678", "-11", "", "t + 1", "h"),
        ("in.r.uint8_expr", "uint8_t", "0x75", "0xf5", "", "(uint8_t)(t + 1)", "r"),
        ("in.r.bitfield_u12", "BF", "BF{0xabc, -11, 0x7ff5}", "BF{0x123, 7, 1}", "", "t.a", "r"),
        ("in.r.bitfield_s5", "BF", "BF{0xabc, -11, 0x7ff5}", "BF{0x123, 7, 1}", "", "t.b", "r"),
        ("in.h.bitfield_u15", "BF", "BF{0xabc, -11, 0x7ff5}", "BF{0x123, 7, 1}", "", "t.c", "h"),
        # A class with one conversion function to a built-in type (the value differs from the bits).
        ("in.r.class_to_unsigned", "ToUnsigned", "ToUnsigned{0x12345678u}", "ToUnsigned{0xfffffff5u}", "", "t", "r"),
        ("in.r.class_to_float", "ToFloat", "ToFloat{1.5f}", "ToFloat{-2.75f}", "", "t", "r"),
        ("in.f.class_to_float", "ToFloat", "ToFloat{1.5f}", "ToFloat{-2.75f}", "", "t", "f"),
    ]
    for name, ctype, v0, v1, decl, expr, letter in variants:
        rt, bits, rbytes = LETTERS[letter]
        body = (f"    {ctype} t; memcpy((void*)&t, in + 64 * i, sizeof t);\n    {decl}\n"
                f"    {rt} r;\n"
                f"    asm volatile(\"mov.b{bits} %0, %1;\" : \"={letter}\"(r) : \"{letter}\"({expr}));\n"
                f"    memcpy(out + 32 * i, &r, sizeof r);")
        out.append((name, body, values_init(ctype, v0, v1), rbytes,
                    dict(dir="in", letter=letter, ctype=ctype, decl=decl.replace("t;", "x;"),
                         expr="x" if expr == "t" else expr.replace("t.", "x.").replace("t +", "x +").replace("(t", "(x"),
                         v0=v0, v1=v1)))
    outv = [
        ("out.r.uint8_ref", "uint8_t", "uint8_t& w = y;", "w", "r"),
        ("out.r.const_uint32", "uint32_t", "const uint32_t& w = y;", "w", "r"),
        ("out.r.rvalue", "uint32_t", "", "y + 1", "r"),
        ("out.r.bitfield_u12", "BF", "", "y.a", "r"),
        ("out.r.bitfield_s5", "BF", "", "y.b", "r"),
        ("out.h.half_ref", "__half", "__half& w = y;", "w", "h"),
    ]
    for name, ctype, decl, expr, letter in outv:
        rt, bits, rbytes = LETTERS[letter]
        r0, r1 = REG_VALUES[letter]
        body = (f"    {rt} v; memcpy(&v, in + 64 * i, sizeof v);\n"
                f"    {ctype} y; memset((void*)&y, 0xa5, sizeof y);\n    {decl}\n"
                f"    asm volatile(\"mov.b{bits} %0, %1;\" : \"={letter}\"({expr}) : \"{letter}\"(v));\n"
                f"    memcpy(out + 32 * i, (const void*)&y, sizeof y);")
        out.append((name, body, values_init(rt, r0, r1), f"(int)sizeof({ctype})",
                    dict(dir="out", letter=letter, ctype=ctype, decl=decl, expr=expr, v0=r0, v1=r1)))
    inout = [
        ("inout.r.short2", "short2", "make_short2(0x1234, -11)", "make_short2(-2, 0x7fff)", "r", "xor.b32 %0, %0, 0x80000001;"),
        ("inout.h.half", "__half", "__half(1.5f)", "__half(-2.75f)", "h", "xor.b16 %0, %0, 0x8001;"),
        ("inout.r.uint8", "uint8_t", "0x75", "0xf5", "r", "xor.b32 %0, %0, 0x80008001;"),
        ("inout.r.int8", "int8_t", "0x75", "-11", "r", "add.u32 %0, %0, 0x100;"),
        ("inout.r.float", "float", "1.5f", "-2.75f", "r", "xor.b32 %0, %0, 0x80000001;"),
        ("inout.f.int32", "int32_t", "0x12345678", "-11", "f", "neg.f32 %0, %0;"),
        ("inout.l.int32", "int32_t", "0x12345678", "-11", "l", "xor.b64 %0, %0, 0x8000000100000001;"),
    ]
    for name, ctype, v0, v1, letter, ptx in inout:
        body = (f"    {ctype} y; memcpy((void*)&y, in + 64 * i, sizeof y);\n"
                f"    asm volatile(\"{ptx}\" : \"+{letter}\"(y));\n"
                f"    memcpy(out + 32 * i, (const void*)&y, sizeof y);")
        out.append((name, body, values_init(ctype, v0, v1), f"(int)sizeof({ctype})",
                    dict(dir="inout", letter=letter, ctype=ctype, decl="", expr=ptx, v0=v0, v1=v1)))
    # "n" immediates.
    imms = [
        (16, "neg1", "-1"), (16, "0x12345", "0x12345"), (16, "true", "true"), (16, "enum_EB", "EB"),
        (16, "enumc", "ECs16::B"), (16, "float", "1.5"), (16, "sizeof", "sizeof(double)"),
        (32, "neg1", "-1"), (32, "0x123456789", "0x123456789ll"), (32, "0xffffffffu", "0xffffffffu"),
        (32, "neg11ll", "-11ll"), (32, "uint8_cast", "(uint8_t)-11"), (32, "char_neg", "(char)-11"),
        (64, "neg1", "-1"), (64, "0xffffffffu", "0xffffffffu"), (64, "neg11", "-11"),
        (64, "0x8000000000000000ull", "0x8000000000000000ull"), (64, "int_min", "(-2147483647 - 1)"),
    ]
    for bits, name, expr in imms:
        letter = {16: "h", 32: "r", 64: "l"}[bits]
        rt, _, rbytes = LETTERS[letter]
        body = (f"    {rt} r;\n"
                f"    asm volatile(\"mov.b{bits} %0, %1;\" : \"={letter}\"(r) : \"n\"({expr}));\n"
                f"    memcpy(out + 32 * i, &r, sizeof r);")
        out.append((f"n.{bits}.{name}", body, "", rbytes,
                    dict(dir="n", letter=letter, ctype="", decl="", expr=expr, v0="", v1="")))
    for ptx, letter, expr in [("mov.f32 %0, %1;", "f", "1"), ("add.f32 %0, %0, %1;", "f", "1")]:
        rt, _, rbytes = LETTERS[letter]
        body = (f"    {rt} r = 0.5f;\n"
                f"    asm volatile(\"{ptx}\" : \"+{letter}\"(r) : \"n\"({expr}));\n"
                f"    memcpy(out + 32 * i, &r, sizeof r);")
        out.append((f"n.f32.{ptx.split()[0]}", body, "", rbytes,
                    dict(dir="n-float", letter=letter, ctype="", decl="", expr=expr, v0="", v1="")))
    # Instructions whose type and registers differ in size.
    ins = [
        ("brev.b64.to_r", "brev.b64 %0, %1;", ("r", "uint32_t"), [("l", "uint64_t", "0x123456789abcdef0ull", "1ull")]),
        ("mul.wide.u32.to_r", "mul.wide.u32 %0, %1, %2;", ("r", "uint32_t"),
         [("r", "uint32_t", "0x12345678u", "0xffffffffu"), ("r", "uint32_t", "0x100u", "0xffffffffu")]),
        ("cvt.rzi.u64.f16.to_r", "cvt.rzi.u64.f16 %0, %1;", ("r", "uint32_t"), [("h", "uint16_t", "0x7bffu", "0x3e00u")]),
        ("mul.lo.u64.to_r", "mul.lo.u64 %0, %1, %2;", ("r", "uint32_t"),
         [("l", "uint64_t", "0x123456789ull", "3ull"), ("l", "uint64_t", "0x100ull", "5ull")]),
        ("add.u32.to_h", "add.u32 %0, %1, %2;", ("h", "uint16_t"),
         [("r", "uint32_t", "0x12345678u", "0xffffu"), ("r", "uint32_t", "1u", "2u")]),
        ("cvt.u32.u16.to_h", "cvt.u32.u16 %0, %1;", ("h", "uint16_t"), [("h", "uint16_t", "0x1234u", "0xfff5u")]),
        ("add.f32.to_h", "add.f32 %0, %1, %2;", ("h", "uint16_t"),
         [("f", "float", "1.5f", "-2.75f"), ("f", "float", "1.0f", "1.0f")]),
        ("add.u32.from_h", "add.u32 %0, %1, %2;", ("r", "uint32_t"),
         [("h", "uint16_t", "0x1234u", "0xfff5u"), ("h", "uint16_t", "1u", "2u")]),
        ("add.u16.to_r", "add.u16 %0, %1, %2;", ("r", "uint32_t"),
         [("h", "uint16_t", "0xffffu", "0x8000u"), ("h", "uint16_t", "2u", "1u")]),
        ("add.s16.to_r", "add.s16 %0, %1, %2;", ("r", "uint32_t"),
         [("h", "uint16_t", "0x7fffu", "0x8000u"), ("h", "uint16_t", "1u", "1u")]),
        ("add.u16.from_r", "add.u16 %0, %1, %2;", ("h", "uint16_t"),
         [("r", "uint32_t", "0x12345678u", "0xffffu"), ("r", "uint32_t", "1u", "0x10002u")]),
        ("add.s32.to_l", "add.s32 %0, %1, %2;", ("l", "uint64_t"),
         [("r", "uint32_t", "0x7fffffffu", "0xfffffff0u"), ("r", "uint32_t", "1u", "1u")]),
        ("add.u32.to_l", "add.u32 %0, %1, %2;", ("l", "uint64_t"),
         [("r", "uint32_t", "0x7fffffffu", "0xfffffff0u"), ("r", "uint32_t", "0x80000001u", "1u")]),
        ("cvt.s8.s32.to_r", "cvt.s8.s32 %0, %1;", ("r", "uint32_t"), [("r", "uint32_t", "0x80u", "0x17fu")]),
        ("cvt.u8.u32.to_r", "cvt.u8.u32 %0, %1;", ("r", "uint32_t"), [("r", "uint32_t", "0x80u", "0x17fu")]),
        ("cvt.s16.s32.to_l", "cvt.s16.s32 %0, %1;", ("l", "uint64_t"), [("r", "uint32_t", "0x8000u", "0x17fffu")]),
        ("cvt.rn.f16.f32.to_r", "cvt.rn.f16.f32 %0, %1;", ("r", "uint32_t"), [("f", "float", "-1.5f", "65504.0f")]),
        ("add.u32.f_regs", "add.u32 %0, %1, %2;", ("f", "float"),
         [("f", "float", "1.5f", "-2.75f"), ("f", "float", "1.0f", "1.0f")]),
        ("and.b32.f_regs", "and.b32 %0, %1, %2;", ("f", "float"),
         [("f", "float", "1.5f", "-2.75f"), ("f", "float", "-1.0f", "1.0f")]),
        ("add.f32.r_regs", "add.f32 %0, %1, %2;", ("r", "uint32_t"),
         [("r", "uint32_t", "0x3fc00000u", "0xc0300000u"), ("r", "uint32_t", "0x3f800000u", "0x3f800000u")]),
        ("add.f32.to_d", "add.f32 %0, %1, %2;", ("d", "double"),
         [("f", "float", "1.5f", "-2.75f"), ("f", "float", "1.0f", "1.0f")]),
        ("add.f64.l_regs", "add.f64 %0, %1, %2;", ("l", "uint64_t"),
         [("l", "uint64_t", "0x3ff8000000000000ull", "1ull"), ("l", "uint64_t", "0x3ff0000000000000ull", "2ull")]),
        ("mov.b32.from_l", "mov.b32 %0, %1;", ("r", "uint32_t"), [("l", "uint64_t", "0x123456789abcdef0ull", "1ull")]),
        ("mov.b16.from_r", "mov.b16 %0, %1;", ("h", "uint16_t"), [("r", "uint32_t", "0x12345678u", "0xfff5u")]),
        ("mov.b32.to_l", "mov.b32 %0, %1;", ("l", "uint64_t"), [("r", "uint32_t", "0x80000001u", "0xfff5u")]),
        ("add.f16.from_r", "add.f16 %0, %1, %2;", ("h", "uint16_t"),
         [("r", "uint32_t", "0x12343c00u", "0x4000u"), ("r", "uint32_t", "0x56783c00u", "0xbc00u")]),
        ("add.f16.to_r", "add.f16 %0, %1, %2;", ("r", "uint32_t"),
         [("h", "uint16_t", "0x3c00u", "0xc000u"), ("h", "uint16_t", "0x3c00u", "0x3c00u")]),
        ("abs.bf16.to_r", "abs.bf16 %0, %1;", ("r", "uint32_t"), [("h", "uint16_t", "0xbfc0u", "0x3f80u")]),
    ]
    for name, ptx, (ol, oty), inputs in ins:
        lines = []
        for j, (il, ity, a, b) in enumerate(inputs):
            lines.append(f"    {ity} a{j}; memcpy(&a{j}, in + 64 * i + 8 * {j}, sizeof a{j});")
        lines.append(f"    {oty} y; memset(&y, 0xa5, sizeof y);")
        ops = ", ".join(f"\"{il}\"(a{j})" for j, (il, *_rest) in enumerate(inputs))
        lines.append(f"    asm volatile(\"{ptx}\" : \"={ol}\"(y) : {ops});")
        lines.append("    memcpy(out + 32 * i, &y, sizeof y);")
        init = " ".join(values_init(ity, a, b, 8 * j) for j, (il, ity, a, b) in enumerate(inputs))
        out.append((f"ins.{name}", "\n".join(lines), init, f"(int)sizeof({oty})",
                    dict(dir="ins", letter=ol, ctype=oty, decl="", expr=ptx, v0="", v1="")))
    return out


RUN_SH = r"""#!/usr/bin/env bash
# Compiles every case alone (rejections attributed to their case), links the accepted ones into one
# program, runs it. Usage: run.sh OUT_DIR
set -uo pipefail
out=${1:?OUT_DIR}
mkdir -p "$out" obj
{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
  echo "nvcc: $(nvcc --version | tail -1)"
} > "$out/env.txt"
ls cases/*.cu | xargs -P "$(nproc)" -I{} sh -c 'b=$(basename {} .cu); nvcc -std=c++17 -arch=sm_90 -O2 -c {} -o obj/$b.o > obj/$b.log 2>&1 || rm -f obj/$b.o'
: > "$out/rejected.tsv"
: > "$out/warnings.tsv"
{
  echo '#include <cstdio>'
  for f in cases/*.cu; do b=$(basename "$f" .cu); [ -f obj/$b.o ] && echo "void run_$b();"; done
  echo 'int main() {'
  for f in cases/*.cu; do b=$(basename "$f" .cu); [ -f obj/$b.o ] && echo "  run_$b();"; done
  echo '  return 0; }'
} > main.cu
for f in cases/*.cu; do
  b=$(basename "$f" .cu); name=$(head -1 "$f" | sed 's,^// ,,')
  if [ ! -f obj/$b.o ]; then
    printf '%s\trejected\t%s\n' "$name" "$(grep -E 'error|fatal' obj/$b.log | head -2 | sed 's,^.*cases/[^(]*([0-9]*): ,,' | tr '\n\t' '  ')" >> "$out/rejected.tsv"
  elif grep -q warning obj/$b.log; then
    printf '%s\t%s\n' "$name" "$(grep warning obj/$b.log | head -2 | sed 's,^.*cases/[^(]*([0-9]*): ,,' | tr '\n\t' '  ')" >> "$out/warnings.tsv"
  fi
done
nvcc -std=c++17 -arch=sm_90 -O2 main.cu obj/*.o -o probe > link.log 2>&1 || { cat link.log; exit 1; }
./probe > "$out/results.tsv"
tar czf "$out/ptx.tgz" $(for o in obj/*.o; do cuobjdump -ptx "$o" > "${o%.o}.ptx" 2>/dev/null; echo "${o%.o}.ptx"; done)
wc -l "$out"/*.tsv
"""


def merge(results_dirs, out_dir):
    """One row per case: how it is written and what nvcc 13 did with it (later runs win)."""
    verdicts = {}
    warnings = {}
    for results_dir in results_dirs:
        for line in open(os.path.join(results_dir, "results.tsv")):
            f = line.rstrip("\n").split("\t")
            verdicts[f[0]] = (f[1], f[2], f[3], "")
        for line in open(os.path.join(results_dir, "rejected.tsv")):
            f = line.rstrip("\n").split("\t")
            message = f[2].split(" 1 error detected")[0].strip()
            if message.startswith("ptxas"):
                message = "ptxas: " + message.split("error   : ")[1].split(" ptxas")[0].strip()
            verdicts[f[0]] = ("rejected", "", "", message)
        for line in open(os.path.join(results_dir, "warnings.tsv")):
            f = line.rstrip("\n").split("\t")
            warnings[f[0]] = f[1].split(" Remark:")[0].strip()
    os.makedirs(out_dir, exist_ok=True)
    env = "; ".join(open(os.path.join(d, "env.txt")).read().strip().replace("\n", ", ")
                    for d in results_dirs)
    with open(os.path.join(out_dir, "nvcc_sm90.tsv"), "w") as t:
        t.write(f"# tools/operands/probe.py --merge: {env}\n")
        t.write("# case\tdir\tletter\tctype\tdecl\texpr\tv0\tv1\tverdict\tbits0\tbits1\tmessage\n")
        for name, _body, _init, _size, m in cases():
            verdict, b0, b1, message = verdicts[name]
            if name in warnings:
                message = "warning: " + warnings[name]
            row = [name, m["dir"], m["letter"], m["ctype"], m["decl"], m["expr"], m["v0"], m["v1"],
                   verdict, b0, b1, message]
            assert all("\t" not in c and "\n" not in c for c in row), row
            t.write("\t".join(row) + "\n")
    with open(os.path.join(out_dir, "decls.h"), "w") as d:
        d.write("// The probe's own types (tools/operands/probe.py).\n" + DECLS.lstrip())


def main():
    if sys.argv[1] == "--merge":
        merge(sys.argv[2:-1], sys.argv[-1])
        return
    staging = os.path.abspath(sys.argv[1])
    only = sys.argv[2:]
    if os.path.exists(staging):
        shutil.rmtree(staging)
    os.makedirs(os.path.join(staging, "cases"))
    for k, (name, body, init, size, _meta) in enumerate(cases()):
        if only and not any(o in name for o in only):
            continue
        cid = f"c{k:03d}"
        with open(os.path.join(staging, "cases", f"{cid}.cu"), "w") as f:
            f.write(f"// {name}\n" + case_file(cid, name, body, init, size))
    path = os.path.join(staging, "run.sh")
    with open(path, "w") as f:
        f.write(RUN_SH)
    os.chmod(path, 0o755)
    print(f"{len(os.listdir(os.path.join(staging, 'cases')))} cases in {staging}")


if __name__ == "__main__":
    main()
