// One wgmma.mma_async statement per rule of rules/warpgroup.toml (Y001-Y010), each between
// wgmma.fence and wgmma.commit_group / wgmma.wait_group (Y011-Y013), spelled as CUTLASS writes
// them (cute/arch/mma_sm90_gmma.hpp: scale-d a predicate set from an "r" operand, the immediates
// "n" operands, accumulators "+f" / "+r"). tests/it/wgmma_sim.rs translates this file as `ptx2hip
// translate --target amd --emit replace` does and runs the result on the wave model over the
// H100's recorded cases of each statement's form. Every function has the checker's entry
// signature (wgmma_check.h): descriptors, scale-d, A's registers, D's registers (C in, D out).
#include <stdint.h>
#include <string.h>

__device__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N>
__device__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

// Y001: f16 D from two descriptors; imm-trans-b 1 (B MN-major).
__device__ void y001_f16_desc(uint64_t desc_a, uint64_t desc_b, uint32_t scale_d, const uint32_t* a,
                              uint32_t* d) {
  uint32_t acc[2];
  memcpy(acc, d, sizeof acc);
  wgmma_fence();
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %4, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 "
      "{%0, %1},"
      " %2,"
      " %3,"
      " p, %5, %6, %7, %8;\n"
      "}\n"
      : "+r"(acc[0]), "+r"(acc[1])
      : "l"(desc_a), "l"(desc_b), "r"(int32_t(scale_d)), "n"(int32_t(1)), "n"(int32_t(1)),
        "n"(int32_t(0)), "n"(int32_t(1)));
  wgmma_commit();
  wgmma_wait<0>();
  memcpy(d, acc, sizeof acc);
  (void)a;
}

// Y002: A in registers, imm-scale-a -1.
__device__ void y002_f16_regs(uint64_t desc_a, uint64_t desc_b, uint32_t scale_d, const uint32_t* a,
                              uint32_t* d) {
  float acc[4];
  memcpy(acc, d, sizeof acc);
  wgmma_fence();
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %9, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
      "{%0, %1, %2, %3},"
      " {%4, %5, %6, %7},"
      " %8,"
      " p, %10, %11, %12;\n"
      "}\n"
      : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(int32_t(scale_d)),
        "n"(int32_t(-1)), "n"(int32_t(1)), "n"(int32_t(0)));
  wgmma_commit();
  wgmma_wait<0>();
  memcpy(d, acc, sizeof acc);
  (void)desc_a;
}

// Y003: imm-trans-a 1 (A MN-major).
__device__ void y003_bf16_desc(uint64_t desc_a, uint64_t desc_b, uint32_t scale_d,
                               const uint32_t* a, uint32_t* d) {
  float acc[4];
  memcpy(acc, d, sizeof acc);
  wgmma_fence();
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %6, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3},"
      " %4,"
      " %5,"
      " p, %7, %8, %9, %10;\n"
      "}\n"
      : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
      : "l"(desc_a), "l"(desc_b), "r"(int32_t(scale_d)), "n"(int32_t(1)), "n"(int32_t(1)),
        "n"(int32_t(1)), "n"(int32_t(0)));
  wgmma_commit();
  wgmma_wait<0>();
  memcpy(d, acc, sizeof acc);
  (void)a;
}

// Y004: A in registers.
__device__ void y004_bf16_regs(uint64_t desc_a, uint64_t desc_b, uint32_t scale_d,
                               const uint32_t* a, uint32_t* d) {
  float acc[8];
  memcpy(acc, d, sizeof acc);
  wgmma_fence();
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %13, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7},"
      " {%8, %9, %10, %11},"
      " %12,"
      " p, %14, %15, %16;\n"
      "}\n"
      : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]), "+f"(acc[4]), "+f"(acc[5]),
        "+f"(acc[6]), "+f"(acc[7])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(int32_t(scale_d)),
        "n"(int32_t(1)), "n"(int32_t(1)), "n"(int32_t(0)));
  wgmma_commit();
  wgmma_wait<0>();
  memcpy(d, acc, sizeof acc);
  (void)desc_a;
}

// Y005: imm-scale-b -1.
__device__ void y005_tf32_desc(uint64_t desc_a, uint64_t desc_b, uint32_t scale_d,
                               const uint32_t* a, uint32_t* d) {
  float acc[4];
  memcpy(acc, d, sizeof acc);
  wgmma_fence();
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %6, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 "
      "{%0, %1, %2, %3},"
      " %4,"
      " %5,"
      " p, %7, %8;\n"
      "}\n"
      : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
      : "l"(desc_a), "l"(desc_b), "r"(int32_t(scale_d)), "n"(int32_t(1)), "n"(int32_t(-1)));
  wgmma_commit();
  wgmma_wait<0>();
  memcpy(d, acc, sizeof acc);
  (void)a;
}

// Y006: A in registers.
__device__ void y006_tf32_regs(uint64_t desc_a, uint64_t desc_b, uint32_t scale_d,
                               const uint32_t* a, uint32_t* d) {
  float acc[8];
  memcpy(acc, d, sizeof acc);
  wgmma_fence();
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %13, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n16k8.f32.tf32.tf32 "
      "{%0, %1, %2, %3, %4, %5, %6, %7},"
      " {%8, %9, %10, %11},"
      " %12,"
      " p, %14, %15;\n"
      "}\n"
      : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]), "+f"(acc[4]), "+f"(acc[5]),
        "+f"(acc[6]), "+f"(acc[7])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(int32_t(scale_d)),
        "n"(int32_t(1)), "n"(int32_t(1)));
  wgmma_commit();
  wgmma_wait<0>();
  memcpy(d, acc, sizeof acc);
  (void)desc_a;
}

// Y007: f16 D, both operands negated.
__device__ void y007_fp8_desc(uint64_t desc_a, uint64_t desc_b, uint32_t scale_d, const uint32_t* a,
                              uint32_t* d) {
  uint32_t acc[2];
  memcpy(acc, d, sizeof acc);
  wgmma_fence();
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %4, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n8k32.f16.e5m2.e4m3 "
      "{%0, %1},"
      " %2,"
      " %3,"
      " p, %5, %6;\n"
      "}\n"
      : "+r"(acc[0]), "+r"(acc[1])
      : "l"(desc_a), "l"(desc_b), "r"(int32_t(scale_d)), "n"(int32_t(-1)), "n"(int32_t(-1)));
  wgmma_commit();
  wgmma_wait<0>();
  memcpy(d, acc, sizeof acc);
  (void)a;
}

// Y008: A in registers.
__device__ void y008_fp8_regs(uint64_t desc_a, uint64_t desc_b, uint32_t scale_d, const uint32_t* a,
                              uint32_t* d) {
  float acc[8];
  memcpy(acc, d, sizeof acc);
  wgmma_fence();
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %13, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e5m2 "
      "{%0, %1, %2, %3, %4, %5, %6, %7},"
      " {%8, %9, %10, %11},"
      " %12,"
      " p, %14, %15;\n"
      "}\n"
      : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]), "+f"(acc[4]), "+f"(acc[5]),
        "+f"(acc[6]), "+f"(acc[7])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(int32_t(scale_d)),
        "n"(int32_t(1)), "n"(int32_t(1)));
  wgmma_commit();
  wgmma_wait<0>();
  memcpy(d, acc, sizeof acc);
  (void)desc_a;
}

// Y009: .satfinite.
__device__ void y009_int_desc(uint64_t desc_a, uint64_t desc_b, uint32_t scale_d, const uint32_t* a,
                              uint32_t* d) {
  uint32_t acc[8];
  memcpy(acc, d, sizeof acc);
  wgmma_fence();
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %10, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n16k32.s32.u8.s8.satfinite "
      "{%0, %1, %2, %3, %4, %5, %6, %7},"
      " %8,"
      " %9,"
      " p;\n"
      "}\n"
      : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3]), "+r"(acc[4]), "+r"(acc[5]),
        "+r"(acc[6]), "+r"(acc[7])
      : "l"(desc_a), "l"(desc_b), "r"(int32_t(scale_d)));
  wgmma_commit();
  wgmma_wait<0>();
  memcpy(d, acc, sizeof acc);
  (void)a;
}

// Y010: A in registers, wrapping.
__device__ void y010_int_regs(uint64_t desc_a, uint64_t desc_b, uint32_t scale_d, const uint32_t* a,
                              uint32_t* d) {
  int32_t acc[4];
  memcpy(acc, d, sizeof acc);
  wgmma_fence();
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %9, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.u8 "
      "{%0, %1, %2, %3},"
      " {%4, %5, %6, %7},"
      " %8,"
      " p;\n"
      "}\n"
      : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(int32_t(scale_d)));
  wgmma_commit();
  wgmma_wait<0>();
  memcpy(d, acc, sizeof acc);
  (void)desc_a;
}
