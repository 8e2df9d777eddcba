// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// A struct copied or moved by its compiler-generated members keeps each
// field's facts: the explanation names where the program wrote the field,
// not the copy (whose only text is the class's keyword), and does not fall
// back on the field's name when the TU writes it. From llm.c, whose GPU
// configuration (an anonymous struct with a process_rank field) is returned
// by value and assigned to a global: its notes read "'process_rank' is set
// from 'struct'" and "taken to hold the rank because of its name; its value
// is set outside the code analysed", although MPI_Comm_rank set it.
// Twin: a field that nothing in the TU writes still draws on its name.

#include <mpi.h>

typedef struct {
  int process_rank;
  int num_processes;
} GpuConfig;

GpuConfig gpuConfigInit() {
  GpuConfig result;
  MPI_Comm_rank(MPI_COMM_WORLD, &result.process_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &result.num_processes);
  return result;
}

GpuConfig Global;

void assigned(float *Buf, int N) {
  Global = gpuConfigInit();
  if (Global.process_rank == 0)
    MPI_Allreduce(MPI_IN_PLACE, Buf, N, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'Global.process_rank == 0' [ddp-collective-in-rank-branch]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition depends on the rank
  // CHECK-NOTES: :24:3: note: 'process_rank' is set to the rank by 'MPI_Comm_rank' here
}
// LINT: copied-struct-notes.cpp:33:7: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT-NEXT: the condition depends on the rank: 'process_rank' is set to the rank by 'MPI_Comm_rank' at copied-struct-notes.cpp:24:3
// LINT-NEXT: when true:  MPI_Allreduce

void copied(float *Buf, int N) {
  GpuConfig Local = Global;
  GpuConfig Other(Local);
  if (Other.process_rank == 0)
    MPI_Allreduce(MPI_IN_PLACE, Buf, N, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'Other.process_rank == 0' [ddp-collective-in-rank-branch]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition depends on the rank
  // CHECK-NOTES: :24:3: note: 'process_rank' is set to the rank by 'MPI_Comm_rank' here
}
// LINT: copied-struct-notes.cpp:[[@LINE-6]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT-NEXT: the condition depends on the rank: 'process_rank' is set to the rank by 'MPI_Comm_rank' at copied-struct-notes.cpp:24:3
// LINT-NEXT: when true:  MPI_Allreduce

struct Launch {
  int rank;
  int world_size;
};

void fromCaller(const Launch &Given, float *Buf, int N) {
  Launch Copy = Given;
  if (Copy.rank == 0)
    MPI_Allreduce(MPI_IN_PLACE, Buf, N, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'Copy.rank == 0' [ddp-collective-in-rank-branch]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition depends on the rank
  // CHECK-NOTES: :[[@LINE-10]]:7: note: 'rank' is taken to hold the rank because of its name; its value is set outside the code analysed
}
// LINT: copied-struct-notes.cpp:[[@LINE-6]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT-NEXT: the condition depends on the rank: 'rank' is taken to hold the rank because of its name; its value is set outside the code analysed at copied-struct-notes.cpp:[[@LINE-13]]:7
// LINT: 3 findings in 1 translation unit
