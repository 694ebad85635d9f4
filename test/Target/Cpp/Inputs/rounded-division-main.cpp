// Driver of rounded-division.mlir: prints the generated functions' results.
#include <cstdint>
#include <cstdio>

int32_t ceil_s(int32_t, int32_t);
int32_t floor_s(int32_t, int32_t);
int32_t ceil_u(int32_t, int32_t);

int main() {
  const int pairs[][2] = {{7, 2}, {-7, 2}, {7, -2}, {-7, -2}, {6, 3}, {-6, 3}};
  std::printf("ceil_s");
  for (const auto &p : pairs)
    std::printf(" %d/%d=%d", p[0], p[1], ceil_s(p[0], p[1]));
  std::printf("\nfloor_s");
  for (const auto &p : pairs)
    std::printf(" %d/%d=%d", p[0], p[1], floor_s(p[0], p[1]));
  std::printf("\nceil_u 7/2=%d 6/3=%d 0/5=%d\n", ceil_u(7, 2), ceil_u(6, 3), ceil_u(0, 5));
  return 0;
}
