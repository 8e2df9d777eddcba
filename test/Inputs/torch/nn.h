// Mock of the parts of LibTorch's torch::nn and torch::optim that ddp-lint's
// tests use: modules, module holders (TORCH_MODULE), registration, and an
// optimizer. Names and signatures of LibTorch 1.13, without the bodies.
#pragma once
#include <c10d/ProcessGroup.hpp>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace torch {
namespace nn {
template <typename Contained> class ModuleHolder {
public:
  ModuleHolder();
  ModuleHolder(std::nullptr_t);
  ModuleHolder(std::shared_ptr<Contained> module);
  template <typename Head, typename... Tail,
            typename = std::enable_if_t<
                !std::is_same<std::decay_t<Head>, std::nullptr_t>::value &&
                !std::is_same<std::decay_t<Head>,
                              std::shared_ptr<Contained>>::value>>
  explicit ModuleHolder(Head &&head, Tail &&...tail);
  Contained *operator->();
  const Contained *operator->() const;
  Contained &operator*();
  template <typename... Args> auto operator()(Args &&...args) {
    return impl_->forward(std::forward<Args>(args)...);
  }
  const std::shared_ptr<Contained> &ptr() const;

private:
  std::shared_ptr<Contained> impl_;
};

class Module {
public:
  virtual ~Module() = default;
  std::vector<at::Tensor> parameters(bool recurse = true) const;
  bool is_training() const noexcept;
  void train(bool on = true);
  void eval();
  template <typename ModuleType>
  std::shared_ptr<ModuleType>
  register_module(std::string name, std::shared_ptr<ModuleType> module);
  template <typename ModuleType>
  std::shared_ptr<ModuleType>
  register_module(std::string name, ModuleHolder<ModuleType> module_holder);
  at::Tensor &register_parameter(std::string name, at::Tensor tensor,
                                 bool requires_grad = true);
};

#define TORCH_MODULE(Name)                                                     \
  class Name : public torch::nn::ModuleHolder<Name##Impl> {                    \
  public:                                                                      \
    using torch::nn::ModuleHolder<Name##Impl>::ModuleHolder;                   \
  }

class LinearImpl : public Module {
public:
  LinearImpl(int64_t in, int64_t out);
  at::Tensor forward(const at::Tensor &input);
};
TORCH_MODULE(Linear);

class DropoutImpl : public Module {
public:
  explicit DropoutImpl(double p = 0.5);
  at::Tensor forward(at::Tensor input);
};
TORCH_MODULE(Dropout);
} // namespace nn

namespace optim {
class Optimizer {
public:
  virtual ~Optimizer() = default;
  virtual at::Tensor step();
  void zero_grad(bool set_to_none = false);
};
class SGD : public Optimizer {
public:
  SGD(std::vector<at::Tensor> params, double lr);
};
} // namespace optim
} // namespace torch
