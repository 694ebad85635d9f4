int main() {
  static int8_t x[1][3][224][224];
  return 0;
}
