// Test bench for compiles.mlir: runs the generated top function
// residual(x, y) once and compares y with relu(x) + x.
#include <cstdio>

void residual(float x[8], float y[8]);

int main() {
  float x[8] = {-3.5f, -1.0f, -0.25f, 0.0f, 0.5f, 1.0f, 2.0f, 4.25f};
  float y[8] = {0};
  residual(x, y);
  int correct = 0;
  for (int i = 0; i < 8; ++i) {
    float expected = (x[i] > 0.0f ? x[i] : 0.0f) + x[i];
    if (y[i] == expected)
      ++correct;
    else
      std::printf("y[%d] = %g, expected %g\n", i, y[i], expected);
  }
  std::printf("residual: %d of 8 correct\n", correct);
  return correct == 8 ? 0 : 1;
}
