__global__ void k(const float* p, float* o) {
  float a, b, c, d, e, f, g, h;
  asm volatile("ld.global.v8.f32 {%0,%1,%2,%3,%4,%5,%6,%7}, [%8];" : "=f"(a),"=f"(b),"=f"(c),"=f"(d),"=f"(e),"=f"(f),"=f"(g),"=f"(h) : "l"(p));
  o[0] = a + b + c + d + e + f + g + h;
}
int main() { return 0; }
