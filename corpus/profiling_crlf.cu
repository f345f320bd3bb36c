// Lightweight in-kernel profiling counters, written on Windows (CRLF line endings), in the
// style of the timing helpers shipped with benchmark suites: cycle stamps, thread indices
// and system-scope publication of results to host-mapped memory.
#include <stdint.h>

namespace prof {

__device__ __forceinline__ uint32_t clock32() {
	uint32_t c;
	asm volatile("mov.u32 %0, %%clock;" : "=r"(c));
	return c;
}

__device__ __forceinline__ uint32_t thread_linear() {
	uint32_t x, y, bx, r;
	asm("mov.u32 %0, %%tid.x;" : "=r"(x));
	asm("mov.u32 %0, %%tid.y;" : "=r"(y));
	asm("mov.u32 %0, %%ntid.x;" : "=r"(bx));
	asm("{\r\n\t"
	    ".reg .u32 t;\r\n\t"
	    "mul.lo.u32 t, %1, %2;\r\n\t"
	    "add.u32 %0, t, %3;\r\n\t"
	    "}"
	    : "=r"(r)
	    : "r"(y), "r"(bx), "r"(x));
	return r;
}

/// Elapsed cycles, tolerating one wrap of the 32-bit counter.
__device__ __forceinline__ uint32_t elapsed(uint32_t start, uint32_t stop) {
	uint32_t d;
	asm("sub.u32 %0, %1, %2;" : "=r"(d) : "r"(stop), "r"(start));
	return d;
}

/// Publishes a 64-bit record and a float score, then fences at system scope.
__device__ __forceinline__ void publish(unsigned long long* slot, unsigned long long record,
                                        float* score, float value) {
	asm volatile("st.global.u64 [%0], %1;" :: "l"(slot), "l"(record) : "memory");
	asm volatile("st.global.f32 [%0], %1;" :: "l"(score), "f"(value) : "memory");
	asm volatile("membar.sys;" ::: "memory");
}

__device__ __forceinline__ unsigned long long read_record(const unsigned long long* slot) {
	unsigned long long r;
	asm volatile("ld.global.u64 %0, [%1];" : "=l"(r) : "l"(slot) : "memory");
	return r;
}

__device__ __forceinline__ float read_score(const float* score) {
	float f;
	asm volatile("ld.global.f32 %0, [%1];" : "=f"(f) : "l"(score) : "memory");
	return f;
}

}  // namespace prof

__global__ void profiling_crlf_kernel(const float* in, float* out, unsigned long long* records,
                                      float* scores, uint32_t* ids, int n) {
	uint32_t start = prof::clock32();
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= n) return;
	float v = in[t];
	float s;
	asm("add.f32 %0, %1, %2;" : "=f"(s) : "f"(v), "f"(1.0f));
	out[t] = s;
	uint32_t cycles = prof::elapsed(start, prof::clock32());
	ids[t] = prof::thread_linear();
	prof::publish(records + t, ((unsigned long long)t << 32) | (cycles != 0u), scores + t, s);
	out[t] += (float)(prof::read_record(records + t) >> 32) * 0.0f + prof::read_score(scores + t) * 0.0f;
}
