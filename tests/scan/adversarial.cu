// Shapes that make a syntax tree lose inline asm (our own code, written to break scanners).
// Every `asm` keyword below must end as a statement, a diagnostic or a skipped entry at its own
// line; crates/ptx2hip-core/src/scan/tests.rs checks it, each line noting the expected outcome.
#include <stdint.h>

#define TRACE(x)
#define CHECK_WARP

// A macro without `;` right before the statement.                              statement
__device__ uint32_t a(uint32_t x) { CHECK_WARP asm volatile("add.u32 %0, %0, 1;" : "+r"(x)); return x; }

// A macro call without `;` before it.                                            statement
__device__ uint32_t b(uint32_t x) { TRACE(x) asm("add.u32 %0, %0, 2;" : "+r"(x)); return x; }

// A constructor initializer, then `#if ... #else asm ... #endif`.                 2 statements
struct C {
  uint32_t v;
  __device__ C(uint32_t x) : v(x)
#if defined(FAST)
  { asm("add.u32 %0, %0, 3;" : "+r"(v)); }
#else
  { asm("add.u32 %0, %0, 4;" : "+r"(v)); }
#endif
};

// `#define` bodies with `#` and `##` around the statement.                        2 statements
#define LD(cop) __device__ uint32_t ld_##cop(const uint32_t* p) { uint32_t v; asm("ld.global." #cop ".u32 %0, [%1];" : "=r"(v) : "l"(p)); return v; }
#define ST(sp, ty) __device__ void st_##sp(ty* p, ty v) { asm volatile("st." #sp ".u32 [%0], %1;" :: "l"(p), "r"(v)); }
LD(cg)
ST(global, uint32_t)

// Several broken statements in one region: each is its own diagnostic.           3 diagnostics
__device__ void broken(uint32_t* p) {
  asm("add.u32 %0, %0, 1;" : "+r"(p[0]) "=r";
  asm("add.u32 %0, %0, 1;" : "+r"(p[1]) :: "memory" : :);
  asm("mov.u32 %0, 1;" : : : : : );
}

// A keyword with no statement after it.                                          diagnostic
__device__ void d() { int asm_like = 0; (void)asm_like; }
#define ASM_ALIAS asm volatile

// Templates whose pieces the file does not define.                              2 statements
__device__ uint32_t e(uint32_t x) {
  asm(UNKNOWN_OP ".u32 %0, %0;" : "+r"(x));
  asm(PTX_OP(add) " %0, %0, 1;" : "+r"(x));
  return x;
}

// Braces in operand expressions; a statement in a comma expression, whose     2 statements,
// end is not a `;` (a diagnostic), before another.                                 1 diagnostic
__device__ uint32_t f(uint32_t x) {
  asm("add.u32 %0, %1, %2;" : "=r"(x) : "r"(uint32_t{x}), "r"([&] { return x; }()));
  asm("mov.u32 %0, %1;" : "=r"(x) : "r"(x)), asm("mov.u32 %0, 2;" : "=r"(x));
  return x;
}

// Not PTX: host, AMD, labels, barriers, never compiled.                          6 skipped
__host__ void g() { asm volatile("pause"); asm volatile("" ::: "memory"); }
#ifdef USE_ROCM
__device__ void h() { asm volatile("s_nop 0"); }
#endif
__device__ int i() __asm("llvm.nvvm.i");
#if 0
__device__ void j() { asm("trap;"); }
#endif
#if !defined(__HIP_PLATFORM_AMD__)
__device__ void k() { asm("exit;"); }
#endif

// An unclosed statement at the end of the file.                                 diagnostic
__device__ void l() { asm("add.u32 %0, %0, 1;" : "+r"(
