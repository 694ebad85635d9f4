// Test bench for table.mlir: runs the generated top function lookups(x, y)
// on every i8 value and checks y = table[x + 128] = ~x.
#include <cstdint>
#include <cstdio>

void lookups(int8_t x[256], int8_t y[256]);

int main() {
  int8_t x[256], y[256] = {0};
  for (int i = 0; i < 256; ++i)
    x[i] = static_cast<int8_t>(i - 128);
  lookups(x, y);
  int correct = 0;
  for (int i = 0; i < 256; ++i) {
    int8_t expected = static_cast<int8_t>(~x[i]);
    if (y[i] == expected)
      ++correct;
    else
      std::printf("y[%d] = %d, expected %d\n", i, y[i], expected);
  }
  std::printf("%d of 256 correct\n", correct);
  return correct == 256 ? 0 : 1;
}
