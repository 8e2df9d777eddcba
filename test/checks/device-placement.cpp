// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// Which device a tensor is placed on does not change what it holds. Found in
// InfiniTrain: every tensor is built with `Device(kCUDA, rank.thread_rank())`
// by constructors defined in other files, so every tensor, autograd node and
// gradient hook looked rank-dependent, and so did the branches of the
// backward pass that reach the gradient reduce-scatter. Twins, reported: the
// device itself, an index or a name made from it, and a tensor whose shape
// depends on the rank.

#include <cstdint>
#include <memory>
#include <mpi.h>
#include <string>
#include <vector>

// A framework's device handle, options and tensor, defined in other files.
enum class DeviceType { kCPU, kCUDA };

class Device {
public:
  Device(DeviceType Type, int Index);
  int index() const;
  DeviceType type() const;
  bool operator==(const Device &Other) const;
};

class TensorOptions {
public:
  TensorOptions device(Device D) const;
};

class Tensor {
public:
  Tensor(std::vector<int64_t> Dims, Device D);
  Tensor(std::vector<int64_t> Dims, TensorOptions Options);
  int64_t numel() const;
  Tensor to(Device D) const;
  Device device() const;
};

std::string toString(Device D);
int ordinal(Device D);

static int rank() {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  return Rank;
}

// Silent: the same shape on every rank's own device.
void placedByFactory() {
  auto T = std::make_shared<Tensor>(std::vector<int64_t>{2, 3},
                                    Device(DeviceType::kCUDA, rank()));
  if (T->numel() > 0)
    MPI_Barrier(MPI_COMM_WORLD);
}

// Silent: placed through options, then moved to the rank's device.
void placedByOptions() {
  Device Dev(DeviceType::kCUDA, rank());
  Tensor X({4}, TensorOptions().device(Dev));
  Tensor Y = X.to(Dev);
  if (Y.numel() == 4)
    MPI_Barrier(MPI_COMM_WORLD);
}

// Silent: a tensor moved by a helper that tests where it already is
// (InfiniTrain's Tensor::To): both sides return the same data, placed on
// different devices, and so does what is assigned under the test.
Tensor moveTo(const Tensor &T, Device D) {
  if (T.device() == D)
    return T;
  if (D.type() == DeviceType::kCPU)
    return T.to(D);
  Tensor Staged = T.to(Device(DeviceType::kCPU, 0));
  return Staged.to(D);
}

void placedByTestingHelper() {
  Tensor X({4}, Device(DeviceType::kCPU, 0));
  Tensor Y = moveTo(X, Device(DeviceType::kCUDA, rank()));
  if (Y.numel() == 4)
    MPI_Barrier(MPI_COMM_WORLD);
  Tensor Z = X;
  if (Device(DeviceType::kCUDA, rank()) == Z.device())
    Z = X.to(Z.device());
  if (Z.numel() == 4)
    MPI_Barrier(MPI_COMM_WORLD);
}

// Silent: the same for the fields of an object that knows its device, set
// on the paths the test chooses (InfiniTrain's Tensor::To copies
// requires_grad_ after `if (device == buffer_device) return ...;`).
class Buffer {
public:
  explicit Buffer(Device D);
  Device device() const;
  bool requiresGrad() const { return RequiresGrad; }
  Buffer movedTo(Device D) const {
    if (D == device())
      return *this;
    Buffer Out(D);
    Out.RequiresGrad = RequiresGrad;
    return Out;
  }

private:
  bool RequiresGrad = false;
};

void fieldsOfPlacedObject() {
  Buffer B(Device(DeviceType::kCPU, 0));
  Buffer M = B.movedTo(Device(DeviceType::kCUDA, rank()));
  if (M.requiresGrad())
    MPI_Barrier(MPI_COMM_WORLD);
}

// Reported: a field of an object that does not know its device, set under a
// test of one.
class Schedule {
public:
  void plan(Device D) {
    if (D == Device(DeviceType::kCUDA, 0))
      Steps = 2;
  }
  int steps() const { return Steps; }

private:
  int Steps = 1;
};

void scheduledByDevice() {
  Schedule S;
  S.plan(Device(DeviceType::kCUDA, rank()));
  for (int I = 0; I < S.steps(); ++I)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'I < S.steps()' depends on the rank [ddp-rank-gated-barrier]
}
// LINT: device-placement.cpp:[[@LINE-4]]:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]

// Reported: a count set under a test of the device is what the test says.
void countedUnderDeviceTest() {
  Device Dev(DeviceType::kCUDA, rank());
  int Steps = 1;
  if (Dev == Device(DeviceType::kCUDA, 0))
    Steps = 2;
  for (int I = 0; I < Steps; ++I)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'I < Steps' depends on the rank [ddp-rank-gated-barrier]
}
// LINT: device-placement.cpp:[[@LINE-4]]:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]

// Reported: the device itself, and a copy of it.
void branchOnDevice() {
  Device Dev(DeviceType::kCUDA, rank());
  Device Copy = Dev;
  if (Copy.index() == 0)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'Copy.index() == 0' [ddp-rank-gated-barrier]
}
// LINT: device-placement.cpp:[[@LINE-4]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

// Reported: an index and a name made from the device.
void branchOnOrdinal() {
  Device Dev(DeviceType::kCUDA, rank());
  if (ordinal(Dev) == 0)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'ordinal(Dev) == 0' [ddp-rank-gated-barrier]
}
// LINT: device-placement.cpp:[[@LINE-4]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

void branchOnName() {
  Device Dev(DeviceType::kCUDA, rank());
  if (toString(Dev) == "cuda:0")
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'toString(Dev) == "cuda:0"' [ddp-rank-gated-barrier]
}
// LINT: device-placement.cpp:[[@LINE-4]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

// Reported: the shape depends on the rank, wherever the tensor is placed.
void shapedByRank() {
  Device Dev(DeviceType::kCUDA, 0);
  auto Z = std::make_shared<Tensor>(std::vector<int64_t>{rank() + 1}, Dev);
  if (Z->numel() > 1)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'Z->numel() > 1' [ddp-rank-gated-barrier]
}
// LINT: device-placement.cpp:[[@LINE-4]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]
