// The probe's own types (tools/operands/probe.py).
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
