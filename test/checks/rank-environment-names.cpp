// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck --check-prefix=LINT --input-file=%t.lint.txt %s

// Environment variables that hold a rank: the launchers' own (RANK,
// OMPI_COMM_WORLD_RANK, HOROVOD_RANK, ...) and, by name, a framework's own
// (GLOBAL_PROC_RANK), read directly or through a helper that takes the
// name. A variable named like something else's rank (LORA_RANK) or like a
// size is not a rank.

#include <cstdlib>
#include <mpi.h>
#include <string>

// A framework's launcher exports its own names.
void frameworkRankVariable(float *buf, int n) {
  int rank = std::atoi(std::getenv("GLOBAL_PROC_RANK"));
  if (rank == 0)
    MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]
// LINT: rank-environment-names.cpp:[[@LINE-4]]:7: warning: ranks can issue different collective sequences
// LINT-NEXT: {{ *}}the condition depends on the rank: 'rank' is set from 'std::atoi(std::getenv("GLOBAL_PROC_RANK"))'

// horovodrun sets HOROVOD_RANK for each process.
void horovodRankVariable(float *buf, int n) {
  const char *r = std::getenv("HOROVOD_RANK");
  if (r && std::atoi(r) > 0)
    return;
  MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'MPI_Allreduce' is skipped by ranks that leave early when 'r && std::atoi(r) > 0' [ddp-collective-in-rank-branch]
// LINT: rank-environment-names.cpp:[[@LINE-5]]:7: warning: ranks can issue different collective sequences

// The rank of a LoRA adapter is the same on every process.
void loraRankVariable(float *buf, int n) {
  int lora = std::atoi(std::getenv("LORA_RANK"));
  if (lora > 0)
    MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

// A helper that reads any variable by a std::string name: a rank source at
// the calls that name a rank, not at the others.
namespace {
int getEnvAsInt(const std::string &name, int fallback) {
  const char *value = std::getenv(name.c_str());
  return value ? std::atoi(value) : fallback;
}
} // namespace

class Environment {
public:
  void init() {
    procWorldSize = getEnvAsInt("PROC_WORLD_SIZE", 1);
    globalProcRank = getEnvAsInt("GLOBAL_PROC_RANK", 0);
  }
  int procWorldSize = 1;
  int globalProcRank = 0;
};

void helperNamedVariables(Environment &env, float *buf, int n) {
  env.init();
  if (env.procWorldSize > 1)
    MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  if (env.globalProcRank == 0)
    MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'env.globalProcRank == 0' [ddp-collective-in-rank-branch]
// LINT: rank-environment-names.cpp:[[@LINE-4]]:7: warning: ranks can issue different collective sequences

// A field named with two prefixes (global_proc_rank_) set outside the code
// analysed, in a class that looks distributed.
struct ProcessInfo {
  int global_proc_rank_;
  int world_size_;
};

void stackedPrefixName(const ProcessInfo &info, float *buf, int n) {
  if (info.global_proc_rank_ == 0)
    MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'info.global_proc_rank_ == 0' [ddp-collective-in-rank-branch]
// LINT: rank-environment-names.cpp:[[@LINE-4]]:7: warning: ranks can issue different collective sequences
// LINT: 4 findings in 1 translation unit
