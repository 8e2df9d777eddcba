int f(const Undeclared &t) {
  const auto [a, b] = g(t);
  return a;
}
