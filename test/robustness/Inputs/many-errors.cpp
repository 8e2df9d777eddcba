// A header written for another compiler: its guards test a macro that this
// compiler defines empty (as NCCL's device headers test __CUDACC__, which
// Clang's CUDA mode defines without a value). Each guard is an error.
#define DEVICE_COMPILER

#if DEVICE_COMPILER
void deviceOnly0();
#endif
#if DEVICE_COMPILER
void deviceOnly1();
#endif
#if DEVICE_COMPILER
void deviceOnly2();
#endif
#if DEVICE_COMPILER
void deviceOnly3();
#endif
#if DEVICE_COMPILER
void deviceOnly4();
#endif
#if DEVICE_COMPILER
void deviceOnly5();
#endif
#if DEVICE_COMPILER
void deviceOnly6();
#endif
#if DEVICE_COMPILER
void deviceOnly7();
#endif
#if DEVICE_COMPILER
void deviceOnly8();
#endif
#if DEVICE_COMPILER
void deviceOnly9();
#endif
#if DEVICE_COMPILER
void deviceOnly10();
#endif
#if DEVICE_COMPILER
void deviceOnly11();
#endif
#if DEVICE_COMPILER
void deviceOnly12();
#endif
#if DEVICE_COMPILER
void deviceOnly13();
#endif
#if DEVICE_COMPILER
void deviceOnly14();
#endif
#if DEVICE_COMPILER
void deviceOnly15();
#endif
#if DEVICE_COMPILER
void deviceOnly16();
#endif
#if DEVICE_COMPILER
void deviceOnly17();
#endif
#if DEVICE_COMPILER
void deviceOnly18();
#endif
#if DEVICE_COMPILER
void deviceOnly19();
#endif
#if DEVICE_COMPILER
void deviceOnly20();
#endif
#if DEVICE_COMPILER
void deviceOnly21();
#endif
#if DEVICE_COMPILER
void deviceOnly22();
#endif
#if DEVICE_COMPILER
void deviceOnly23();
#endif
#if DEVICE_COMPILER
void deviceOnly24();
#endif

#include <mpi.h>

// Past the twenty-fifth error: only rank 0 returns early, the others wait
// in the barrier.
int shareConfig(int *config) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0 && *config < 0)
    return 1;
  MPI_Barrier(MPI_COMM_WORLD);
  return 0;
}
