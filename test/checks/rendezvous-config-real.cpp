// ddp-rendezvous-config on the real LibTorch headers (Debian libtorch-dev,
// c10d with Gloo): stores hosted by every rank or by several, store and
// process group built for different world sizes, rank-dependent store
// addresses, environment variables no launcher sets, and process groups only
// some ranks create; and the correct set-ups beside them.
// REQUIRES: libtorch
// Once per test command: the LLVM 19 and sanitizer runs analyse the real
// headers in real-libtorch-training.cpp, unresolved-calls-real-libtorch.cpp
// and driver/real-libtorch.test (each parse of them costs seconds).
// UNSUPPORTED: sanitizers, llvm-19
// RUN: %check_ddp_tidy %s ddp-rendezvous-config %t -- -- %torch_flags

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <cstdlib>
#include <cstring>
#include <string>

using Store = c10::intrusive_ptr<c10d::Store>;
using Group = c10::intrusive_ptr<c10d::ProcessGroup>;

static int envRank() { return std::atoi(std::getenv("RANK")); }
static int envWorld() { return std::atoi(std::getenv("WORLD_SIZE")); }
static std::string envAddr() { return std::getenv("MASTER_ADDR"); }
static int envPort() { return std::atoi(std::getenv("MASTER_PORT")); }
int configuredServerFlag();

// --- Who hosts the store -------------------------------------------------

// 1. Every rank starts the server.
Store everyRankServer() {
  return c10::make_intrusive<c10d::TCPStore>(envAddr(), envPort(), envWorld(),
                                             true);
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: every rank starts the TCPStore server: all but one fail to bind the port ('address already in use'); host the store on one rank only ('isServer' = 'rank == 0') [ddp-rendezvous-config]
}

// 2. The same with the constructor.
void everyRankServerCtor() {
  c10d::TCPStore store(envAddr(), envPort(), envWorld(), /*isServer=*/true);
  // CHECK-MESSAGES: :[[@LINE-1]]:71: warning: every rank starts the TCPStore server
}

// 3. Every rank but rank 0 is a server.
Store allButRootServe() {
  int rank = envRank();
  return c10::make_intrusive<c10d::TCPStore>(envAddr(), envPort(), envWorld(),
                                             rank != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: 'isServer' is true on more than one rank: each of them starts a TCPStore server on the same port; host the store on one rank only ('rank == 0') [ddp-rendezvous-config]
}

// 4. Every even rank is a server.
Store evenRanksServe() {
  int rank = envRank();
  return c10::make_intrusive<c10d::TCPStore>(envAddr(), envPort(), envWorld(),
                                             rank % 2 == 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: 'isServer' is true on more than one rank
}

// 5. TCPStoreOptions with isServer set on every rank.
Store optionsEveryRank() {
  c10d::TCPStoreOptions opts;
  opts.port = 29500;
  opts.isServer = true;
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: every rank starts the TCPStore server
  opts.numWorkers = envWorld();
  return c10::make_intrusive<c10d::TCPStore>(envAddr(), opts);
}

// 6. Not a case: rank 0 hosts.
Store rootServes() {
  int rank = envRank();
  return c10::make_intrusive<c10d::TCPStore>(envAddr(), envPort(), envWorld(),
                                             rank == 0);
}

// 7. Not a case: through a flag computed from the rank.
Store masterFlag() {
  int rank = envRank();
  bool isMaster = rank == 0;
  return c10::make_intrusive<c10d::TCPStore>(envAddr(), envPort(), envWorld(),
                                             isMaster);
}

// 8. Not a case: !rank.
Store notRank() {
  int rank = envRank();
  return c10::make_intrusive<c10d::TCPStore>(envAddr(), envPort(), envWorld(),
                                             !rank);
}

// 9. Not a case: the server built on rank 0 only, clients elsewhere.
Store serverThenClients() {
  int rank = envRank();
  if (rank == 0)
    return c10::make_intrusive<c10d::TCPStore>(envAddr(), envPort(),
                                               envWorld(), true);
  return c10::make_intrusive<c10d::TCPStore>(envAddr(), envPort(), envWorld(),
                                             false);
}

// 10. Not a case: options with the server on rank 0.
Store optionsRootServes() {
  c10d::TCPStoreOptions opts;
  opts.isServer = envRank() == 0;
  opts.numWorkers = envWorld();
  return c10::make_intrusive<c10d::TCPStore>(envAddr(), opts);
}

// 11. Not a case: whether this process hosts comes from configuration.
Store configuredServer() {
  return c10::make_intrusive<c10d::TCPStore>(envAddr(), envPort(), envWorld(),
                                             configuredServerFlag() != 0);
}

// --- World size ----------------------------------------------------------

// 12. The store waits for 4 workers, the group for WORLD_SIZE ranks.
Group literalAgainstEnv(int rank) {
  auto store = c10::make_intrusive<c10d::TCPStore>(envAddr(), envPort(), 4,
                                                   rank == 0);
  int world = std::atoi(std::getenv("WORLD_SIZE"));
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world);
  // CHECK-MESSAGES: :[[@LINE-1]]:67: warning: the process group is built for 'world' ranks but its store for '4' workers: when they differ the rendezvous never completes; take both from one value [ddp-rendezvous-config]
}

// 13. Two environment variables.
Group twoVariables(int rank) {
  int world = std::atoi(std::getenv("WORLD_SIZE"));
  int local = std::atoi(std::getenv("LOCAL_WORLD_SIZE"));
  auto store = c10::make_intrusive<c10d::TCPStore>(envAddr(), envPort(), local,
                                                   rank == 0);
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world);
  // CHECK-MESSAGES: :[[@LINE-1]]:67: warning: the process group is built for 'world' ranks but its store for 'local' workers
}

// 14. Two literals that differ.
Group twoLiterals(int rank) {
  auto store = c10::make_intrusive<c10d::TCPStore>(envAddr(), envPort(), 8,
                                                   rank == 0);
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:67: warning: the process group is built for '2' ranks but its store for '8' workers
}

// 15. TCPStoreOptions::numWorkers against the group's size.
Group optionsWorkers(int rank, int size) {
  c10d::TCPStoreOptions opts;
  opts.isServer = rank == 0;
  opts.numWorkers = 16;
  auto store = c10::make_intrusive<c10d::TCPStore>(envAddr(), opts);
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, size);
  // CHECK-MESSAGES: :[[@LINE-1]]:67: warning: the process group is built for 'size' ranks but its store for '16' workers
}

// 16. Not a case: one variable for both.
Group oneVariable(int rank) {
  int world = envWorld();
  auto store = c10::make_intrusive<c10d::TCPStore>(envAddr(), envPort(), world,
                                                   rank == 0);
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world);
}

// 17. Not a case: both read from WORLD_SIZE.
Group bothFromEnv(int rank) {
  auto store = c10::make_intrusive<c10d::TCPStore>(
      envAddr(), envPort(), std::atoi(std::getenv("WORLD_SIZE")), rank == 0);
  return c10::make_intrusive<c10d::ProcessGroupGloo>(
      store, rank, std::atoi(std::getenv("WORLD_SIZE")));
}

// 18. Not a case: the same literal.
Group sameLiteral(int rank) {
  auto store = c10::make_intrusive<c10d::TCPStore>(envAddr(), envPort(), 2,
                                                   rank == 0);
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, 2);
}

// --- Where the store is --------------------------------------------------

// 19. Rank 0 uses loopback, the others MASTER_ADDR.
Store addressByRank() {
  int rank = envRank();
  std::string host = rank == 0 ? std::string("127.0.0.1") : envAddr();
  return c10::make_intrusive<c10d::TCPStore>(host, envPort(), envWorld(),
                                             rank == 0);
  // CHECK-MESSAGES: :[[@LINE-2]]:46: warning: the store's address 'host' depends on the rank: ranks look for the store in different places and never meet; read MASTER_ADDR and MASTER_PORT on every rank [ddp-rendezvous-config]
}

// 20. A port per rank.
Store portByRank() {
  int rank = envRank();
  return c10::make_intrusive<c10d::TCPStore>(envAddr(), 29500 + rank,
                                             envWorld(), rank == 0);
  // CHECK-MESSAGES: :[[@LINE-2]]:57: warning: the store's port '29500 + rank' depends on the rank
}

// 21. The same through TCPStoreOptions.
Store optionsPortByRank() {
  int rank = envRank();
  c10d::TCPStoreOptions opts;
  opts.port = 29500 + rank;
  opts.isServer = rank == 0;
  return c10::make_intrusive<c10d::TCPStore>(envAddr(), opts);
  // CHECK-MESSAGES: :[[@LINE-3]]:15: warning: the store's port '29500 + rank' depends on the rank
}

// 22. Not a case: MASTER_ADDR and MASTER_PORT on every rank.
Store addressFromEnv() {
  return c10::make_intrusive<c10d::TCPStore>(envAddr(), envPort(), envWorld(),
                                             envRank() == 0);
}

// --- Environment variables -----------------------------------------------

// 23. Misspelt world size.
int worldSizeTypo() { return std::atoi(std::getenv("WORLDSIZE")); }
// CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 'WORLDSIZE' is not set by torchrun (RANK, LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT), mpirun or srun: every rank gets the default, and the ranks disagree or collide; add it to KnownEnvVars if your launcher sets it [ddp-rendezvous-config]

// 24. A master address under another name.
std::string masterIp() { return std::getenv("MASTER_IP"); }
// CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'MASTER_IP' is not set by torchrun

// 25. A rank under another name.
int myRank() { return std::atoi(std::getenv("MY_RANK")); }
// CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'MY_RANK' is not set by torchrun

// 26. Not a case: torchrun's, mpirun's and srun's variables.
int launcherVariables() {
  return std::atoi(std::getenv("LOCAL_RANK")) +
         std::atoi(std::getenv("OMPI_COMM_WORLD_RANK")) +
         std::atoi(std::getenv("SLURM_PROCID")) +
         std::atoi(std::getenv("LOCAL_WORLD_SIZE"));
}

// 26b. Not a case: fallbacks through MVAPICH2's and Flux's variables.
int localRankFromAnyLauncher() {
  const char *env = std::getenv("MV2_COMM_WORLD_LOCAL_RANK");
  if (!env)
    env = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  if (!env)
    env = std::getenv("FLUX_TASK_LOCAL_ID");
  return env ? std::atoi(env) : 0;
}
int globalRankFromAnyLauncher() {
  const char *env = std::getenv("MV2_COMM_WORLD_RANK");
  if (!env)
    env = std::getenv("FLUX_TASK_RANK");
  return env ? std::atoi(env) : 0;
}
int localSizeFromAnyLauncher() {
  const char *env = std::getenv("MV2_COMM_WORLD_LOCAL_SIZE");
  if (!env)
    env = std::getenv("FLUX_JOB_SIZE");
  return env ? std::atoi(env) : 1;
}

// 26c. Not a case: Intel MPI's and MPICH's Hydra, then Cray's PALS (the
// local size intel/torch-ccl reads), IBM's jsrun and horovodrun.
int localSizeFromHydraOrPals() {
  if (const char *impi = std::getenv("MPI_LOCALNRANKS"))
    return std::atoi(impi);
  if (const char *pals = std::getenv("PALS_LOCAL_SIZE"))
    return std::atoi(pals);
  return 0;
}
int rankFromOtherLaunchers() {
  return std::atoi(std::getenv("MPI_LOCALRANKID")) +
         std::atoi(std::getenv("PALS_RANKID")) +
         std::atoi(std::getenv("JSM_NAMESPACE_RANK")) +
         std::atoi(std::getenv("HOROVOD_LOCAL_RANK"));
}

// 26d. Not a case: a switch that names the rank, only tested for being set
// or against a literal (FasterTransformer's FT_LOG_FIRST_RANK_ONLY). Its
// twin reads a number from a variable that names the rank: reported.
bool logFirstRankOnly() {
  const char *only = std::getenv("LOG_FIRST_RANK_ONLY");
  return only != nullptr && std::string(only) == "ON";
}
bool everyRankPrints() {
  if (const char *all = std::getenv("PRINT_ALL_RANKS"))
    return std::strcmp(all, "1") == 0;
  return !std::getenv("QUIET_RANKS");
}
int trainerRank() {
  const char *rank = std::getenv("TRAINER_RANK");
  if (rank != nullptr && std::string(rank) != "")
    return std::atoi(rank);
  return 0;
}
// CHECK-MESSAGES: :[[@LINE-5]]:22: warning: 'TRAINER_RANK' is not set by torchrun

// 27. Not a case: a variable that has nothing to do with the rendezvous.
std::string dataDir() { return std::getenv("DATA_DIR"); }

// --- Who creates the process group ---------------------------------------

// 28. Only rank 0 creates the process group.
Group onlyRootCreates(const Store &store) {
  int rank = envRank();
  Group pg;
  if (rank == 0)
    pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, envWorld());
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: only some ranks create this ProcessGroupGloo: creating a process group is a collective that every rank of the job must enter, so the others wait at their next collective; create it on every rank [ddp-rendezvous-config]
  return pg;
}

// 29. The ranks that leave early never create it.
Group earlyLeave(const Store &store) {
  int rank = envRank();
  if (rank >= 4)
    return Group();
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, envWorld());
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: only some ranks create this ProcessGroupGloo
}

// 30. Not a case: every rank creates it.
Group everyRankCreates(const Store &store) {
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, envRank(),
                                                     envWorld());
}

// 31. Not a case: both sides create it, with other options.
Group bothSidesCreate(const Store &store) {
  int rank = envRank();
  Group pg;
  if (rank == 0)
    pg = c10::make_intrusive<c10d::ProcessGroupGloo>(
        store, rank, envWorld(), c10d::ProcessGroupGloo::Options::create());
  else
    pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, envWorld());
  return pg;
}

// 32. Not a case: port 0, a free port for each server, which a test of the
// store reads back for its client in the same process (found in a process
// group library's store tests). Its twin, a fixed port, is reported.
void serverAndClientInOneProcess() {
  auto server =
      c10::make_intrusive<c10d::TCPStore>("127.0.0.1", 0, 2, /*isServer=*/true);
  c10d::TCPStoreOptions opts;
  opts.port = server->getPort();
  opts.isServer = false;
  auto client = c10::make_intrusive<c10d::TCPStore>("127.0.0.1", opts);
}

Store fixedPort() {
  return c10::make_intrusive<c10d::TCPStore>("127.0.0.1", 29500, 2,
                                             /*isServer=*/true);
  // CHECK-MESSAGES: :[[@LINE-1]]:59: warning: every rank starts the TCPStore server
}
