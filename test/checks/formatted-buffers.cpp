// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// snprintf (and sprintf, strcpy) replaces what the whole buffer held. Found
// in llm.c: a global file-name buffer is formatted with the rank for each
// rank's state file in one function, and with the checkpoint's step for the
// model file in another, which reads the model's header from it. Twins,
// reported: the buffer formatted with the rank before the read, and a buffer
// only appended to (strcat keeps what the rank-named write put there).

#include <cstdio>
#include <cstring>
#include <mpi.h>

char Path[256];
int Rank;

void saveState(int Step) {
  snprintf(Path, sizeof(Path), "state_%08d_%05d.bin", Step, Rank);
  FILE *F = fopen(Path, "wb");
  fwrite(&Step, sizeof(Step), 1, F);
  fclose(F);
}

int readLayers(const char *File) {
  int Header[4];
  FILE *F = fopen(File, "rb");
  fread(Header, sizeof(int), 4, F);
  fclose(F);
  return Header[1];
}

void gatherLayers(int Layers, float *Shard, float *All) {
  for (int L = 0; L < Layers; ++L)
    MPI_Allgather(Shard, 1, MPI_FLOAT, All, 1, MPI_FLOAT, MPI_COMM_WORLD);
}

// Silent: the model file's name holds the step only.
void loadModel(int Step, float *Shard, float *All) {
  snprintf(Path, sizeof(Path), "model_%08d.bin", Step);
  int Layers = readLayers(Path);
  gatherLayers(Layers, Shard, All);
}

// Reported: each rank reads its own shard's header.
void loadShard(float *Shard, float *All) {
  snprintf(Path, sizeof(Path), "shard_%05d.bin", Rank);
  int Layers = readLayers(Path);
  for (int L = 0; L < Layers; ++L)
    MPI_Allgather(Shard, 1, MPI_FLOAT, All, 1, MPI_FLOAT, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allgather' is called a rank-dependent number of times: the loop condition 'L < Layers' depends on the rank [ddp-collective-in-rank-branch]
}
// LINT: formatted-buffers.cpp:[[@LINE-4]]:19: warning: the number of 'MPI_Allgather' calls depends on the rank [ddp-rank-dependent-loop]

// Reported: strcat adds to the name the last rank-named write left.
void loadAppended(float *Shard, float *All) {
  strcat(Path, ".old");
  int Layers = readLayers(Path);
  for (int L = 0; L < Layers; ++L)
    MPI_Allgather(Shard, 1, MPI_FLOAT, All, 1, MPI_FLOAT, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allgather' is called a rank-dependent number of times: the loop condition 'L < Layers' depends on the rank [ddp-collective-in-rank-branch]
}
// LINT: formatted-buffers.cpp:[[@LINE-4]]:19: warning: the number of 'MPI_Allgather' calls depends on the rank [ddp-rank-dependent-loop]

int main(int Argc, char **Argv) {
  MPI_Init(&Argc, &Argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  float Shard[1] = {0}, All[64];
  saveState(10);
  loadModel(10, Shard, All);
  loadShard(Shard, All);
  loadAppended(Shard, All);
  MPI_Finalize();
}
