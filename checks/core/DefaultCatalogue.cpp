//===--- DefaultCatalogue.cpp - The built-in collective catalogue ---------===//
//
// The table of calls ddp-lint knows out of the box. Method patterns name a
// base class and match every class derived from it, so ProcessGroupGloo,
// ProcessGroupNCCL, 2.x Backend subclasses and user wrappers derived from
// them are covered without naming each one.
//
//===----------------------------------------------------------------------===//

#include "core/CollectiveCatalogue.h"

namespace ddp {
namespace {

struct DefaultEntry {
  const char *Pattern;
  CallRole Role;
  int Arg;
};

using R = CallRole;

// c10d::ProcessGroup (1.x and 2.x) and c10d::Backend (2.x) methods. Arg is the
// buffer that holds the same value on every rank once the call completes.
constexpr const char *C10dClasses[] = {"c10d::ProcessGroup", "c10d::Backend"};
constexpr DefaultEntry C10dMethods[] = {
    {"broadcast", R::Collective, 0},
    {"allreduce", R::Collective, 0},
    {"allreduce_coalesced", R::Collective, 0},
    {"reduce", R::Collective, -1},
    {"allgather", R::Collective, 0},
    {"_allgather_base", R::Collective, 0},
    {"allgather_coalesced", R::Collective, 0},
    {"allgather_into_tensor_coalesced", R::Collective, 0},
    {"gather", R::Collective, -1},
    {"scatter", R::Collective, -1},
    {"reduce_scatter", R::Collective, -1},
    {"_reduce_scatter_base", R::Collective, -1},
    {"reduce_scatter_tensor_coalesced", R::Collective, -1},
    {"alltoall", R::Collective, -1},
    {"alltoall_base", R::Collective, -1},
    {"barrier", R::Barrier, -1},
    {"monitoredBarrier", R::Barrier, -1},
    {"send", R::PointToPoint, -1},
    {"recv", R::PointToPoint, -1},
    {"recvAnysource", R::PointToPoint, -1},
    {"getRank", R::RankSource, -1},
    {"getSize", R::UniformSource, -1},
    {"getBackendName", R::UniformSource, -1},
};

constexpr DefaultEntry OtherEntries[] = {
    // Work handles: waiting is local.
    {"c10d::Work::wait", R::Local, -1},
    {"c10d::ProcessGroup::Work::wait", R::Local, -1},
    {"c10d::Work::isCompleted", R::Local, -1},
    // c10d free functions and helpers that communicate.
    {"c10d::ops::broadcast", R::Collective, 1},
    {"c10d::ops::allreduce", R::Collective, 1},
    {"c10d::ops::allreduce_coalesced", R::Collective, 1},
    {"c10d::ops::allgather", R::Collective, 1},
    {"c10d::ops::_allgather_base", R::Collective, 1},
    {"c10d::ops::allgather_coalesced", R::Collective, 1},
    {"c10d::ops::reduce_scatter", R::Collective, -1},
    {"c10d::ops::_reduce_scatter_base", R::Collective, -1},
    {"c10d::ops::reduce", R::Collective, -1},
    {"c10d::ops::gather", R::Collective, -1},
    {"c10d::ops::scatter", R::Collective, -1},
    {"c10d::ops::alltoall", R::Collective, -1},
    {"c10d::ops::alltoall_base", R::Collective, -1},
    {"c10d::ops::barrier", R::Barrier, -1},
    {"c10d::ops::monitored_barrier", R::Barrier, -1},
    {"c10d::ops::send", R::PointToPoint, -1},
    {"c10d::ops::recv", R::PointToPoint, -1},
    {"c10d::broadcast_coalesced", R::Collective, 1},
    {"c10d::verify_params_across_processes", R::Collective, -1},
    {"c10d::Reducer::prepare_for_backward", R::ArmsGradSync, -1},
    {"c10d::Reducer::Reducer", R::ArmsGradSync, -1},
    // A scalar read from a tensor this rank computed (a loss, a NaN test)
    // differs between ranks unless the tensor went through a collective.
    {"at::Tensor::item", R::LocalData, -1},
    {"at::TensorBase::item", R::LocalData, -1},
    {"at::Tensor::is_nonzero", R::LocalData, -1},
    {"at::TensorBase::is_nonzero", R::LocalData, -1},
    {"at::Tensor::equal", R::LocalData, -1},
    {"at::Tensor::allclose", R::LocalData, -1},
    {"at::equal", R::LocalData, -1},
    {"at::allclose", R::LocalData, -1},
    // Whether a gradient is defined: a parameter this rank's forward pass did
    // not use has none (only `defined()` of a gradient is a source).
    {"at::Tensor::defined", R::LocalData, -1},
    {"at::TensorBase::defined", R::LocalData, -1},
    // Clocks, files and random devices are each rank's own:
    // a time budget or a file test can end a loop on one rank only.
    {"std::chrono::*clock::now", R::LocalData, -1},
    {"time", R::LocalData, -1},
    {"clock", R::LocalData, -1},
    {"gettimeofday", R::LocalData, -1},
    {"clock_gettime", R::LocalData, -1},
    {"std::filesystem::exists", R::LocalData, -1},
    {"std::filesystem::is_regular_file", R::LocalData, -1},
    {"std::filesystem::is_directory", R::LocalData, -1},
    {"std::filesystem::file_size", R::LocalData, -1},
    {"std::filesystem::last_write_time", R::LocalData, -1},
    {"access", R::LocalData, -1},
    {"stat", R::LocalData, -1},
    // Listings of a directory: what this rank's (node's) disk holds, such
    // as the checkpoints only rank 0 wrote.
    {"std::filesystem::directory_iterator::directory_iterator", R::LocalData,
     -1},
    {"std::filesystem::recursive_directory_iterator::"
     "recursive_directory_iterator",
     R::LocalData, -1},
    {"std::filesystem::is_empty", R::LocalData, -1},
    {"opendir", R::LocalData, -1},
    {"fdopendir", R::LocalData, -1},
    {"readdir", R::LocalData, -1},
    {"scandir", R::LocalData, 1},
    {"glob", R::LocalData, 3},
    {"std::basic_ifstream::is_open", R::LocalData, -1},
    {"std::basic_fstream::is_open", R::LocalData, -1},
    {"std::random_device::random_device", R::LocalData, -1},
    // Gradients: backward() synchronises once gradient sync is armed.
    {"at::Tensor::backward", R::GradientSync, -1},
    {"at::TensorBase::backward", R::GradientSync, -1},
    {"torch::autograd::backward", R::GradientSync, -1},
    // torch::cuda::nccl.
    {"torch::cuda::nccl::broadcast", R::Collective, 0},
    {"torch::cuda::nccl::reduce", R::Collective, -1},
    {"torch::cuda::nccl::all_reduce", R::Collective, 1},
    {"torch::cuda::nccl::reduce_scatter", R::Collective, -1},
    {"torch::cuda::nccl::all_gather", R::Collective, 1},
    {"torch::cuda::nccl::all2all", R::Collective, -1},
    {"torch::cuda::nccl::all2all_single_equal_split", R::Collective, -1},
    {"torch::cuda::nccl::all2all_single_unequal_split", R::Collective, -1},
    {"torch::cuda::nccl::gather", R::Collective, -1},
    {"torch::cuda::nccl::scatter", R::Collective, -1},
    {"torch::cuda::nccl::send", R::PointToPoint, -1},
    {"torch::cuda::nccl::recv", R::PointToPoint, -1},
    {"torch::cuda::nccl::get_unique_id", R::Local, -1},
    {"torch::cuda::nccl::init_rank", R::Collective, -1},
    // The NCCL API.
    {"ncclAllReduce", R::Collective, 1},
    {"ncclBroadcast", R::Collective, 1},
    {"ncclBcast", R::Collective, 0},
    {"ncclReduce", R::Collective, -1},
    {"ncclAllGather", R::Collective, 1},
    {"ncclReduceScatter", R::Collective, -1},
    {"ncclAlltoAll", R::Collective, -1},
    {"ncclGather", R::Collective, -1},
    {"ncclScatter", R::Collective, -1},
    {"ncclCommInitRank", R::Collective, -1},
    {"ncclCommInitRankConfig", R::Collective, -1},
    {"ncclCommInitRankScalable", R::Collective, -1},
    {"ncclCommSplit", R::Collective, -1},
    {"ncclCommFinalize", R::Collective, -1},
    {"ncclSend", R::PointToPoint, -1},
    {"ncclRecv", R::PointToPoint, -1},
    {"ncclGetUniqueId", R::Local, -1},
    {"ncclGroupStart", R::Local, -1},
    {"ncclGroupEnd", R::Local, -1},
    {"ncclCommDestroy", R::Local, -1},
    {"ncclCommAbort", R::Local, -1},
    {"ncclCommUserRank", R::RankSource, 1},
    {"ncclCommCuDevice", R::RankSource, 1},
    {"ncclCommCount", R::UniformSource, 1},
    // Gloo (gloo/allreduce.h, ...): each collective takes an options object,
    // and the output it was given (opts.setOutput(ptr, n)) holds the same
    // value on every rank once allreduce, broadcast or allgather returns.
    {"gloo::allreduce", R::Collective, 0},
    {"gloo::broadcast", R::Collective, 0},
    {"gloo::allgather", R::Collective, 0},
    {"gloo::allgatherv", R::Collective, 0},
    {"gloo::barrier", R::Barrier, -1},
    {"gloo::gather", R::Collective, -1},
    {"gloo::scatter", R::Collective, -1},
    {"gloo::reduce", R::Collective, -1},
    {"gloo::alltoall", R::Collective, -1},
    {"gloo::alltoallv", R::Collective, -1},
    {"gloo::*Options::setOutput", R::OutputBinding, 0},
    {"gloo::*Options::setOutputs", R::OutputBinding, 0},
    // Gloo's algorithm objects (AllreduceRing, BarrierAllToAll, ...): run()
    // is the collective over the context they were built with.
    {"gloo::Algorithm::run", R::Collective, -1},
    // MPI: blocking, nonblocking and persistent collectives.
    {"MPI_Barrier", R::Barrier, -1},
    {"MPI_Ibarrier", R::Barrier, -1},
    {"MPI_Barrier_init", R::Barrier, -1},
    {"MPI_Bcast", R::Collective, 0},
    {"MPI_Ibcast", R::Collective, 0},
    {"MPI_Bcast_init", R::Collective, 0},
    {"MPI_Allreduce", R::Collective, 1},
    {"MPI_Iallreduce", R::Collective, 1},
    {"MPI_Allreduce_init", R::Collective, 1},
    {"MPI_Allgather", R::Collective, 3},
    {"MPI_Iallgather", R::Collective, 3},
    {"MPI_Allgather_init", R::Collective, 3},
    {"MPI_Allgatherv", R::Collective, 3},
    {"MPI_Iallgatherv", R::Collective, 3},
    {"MPI_Reduce", R::Collective, -1},
    {"MPI_Ireduce", R::Collective, -1},
    {"MPI_Reduce_init", R::Collective, -1},
    {"MPI_Gather", R::Collective, -1},
    {"MPI_Igather", R::Collective, -1},
    {"MPI_Gatherv", R::Collective, -1},
    {"MPI_Igatherv", R::Collective, -1},
    {"MPI_Scatter", R::Collective, -1},
    {"MPI_Iscatter", R::Collective, -1},
    {"MPI_Scatterv", R::Collective, -1},
    {"MPI_Iscatterv", R::Collective, -1},
    {"MPI_Alltoall", R::Collective, -1},
    {"MPI_Ialltoall", R::Collective, -1},
    {"MPI_Alltoallv", R::Collective, -1},
    {"MPI_Ialltoallv", R::Collective, -1},
    {"MPI_Alltoallw", R::Collective, -1},
    {"MPI_Reduce_scatter", R::Collective, -1},
    {"MPI_Ireduce_scatter", R::Collective, -1},
    {"MPI_Reduce_scatter_block", R::Collective, -1},
    {"MPI_Scan", R::Collective, -1},
    {"MPI_Iscan", R::Collective, -1},
    {"MPI_Exscan", R::Collective, -1},
    {"MPI_Iexscan", R::Collective, -1},
    {"MPI_Neighbor_allgather", R::Collective, -1},
    {"MPI_Neighbor_allgatherv", R::Collective, -1},
    {"MPI_Neighbor_alltoall", R::Collective, -1},
    {"MPI_Neighbor_alltoallv", R::Collective, -1},
    {"MPI_Neighbor_alltoallw", R::Collective, -1},
    {"MPI_Ineighbor_allgather", R::Collective, -1},
    {"MPI_Ineighbor_alltoall", R::Collective, -1},
    // MPI: communicator and window creation are collective too.
    {"MPI_Comm_split", R::Collective, -1},
    {"MPI_Comm_split_type", R::Collective, -1},
    {"MPI_Comm_dup", R::Collective, -1},
    {"MPI_Comm_create", R::Collective, -1},
    {"MPI_Comm_create_group", R::Collective, -1},
    {"MPI_Comm_free", R::Collective, -1},
    {"MPI_Comm_idup", R::Collective, -1},
    {"MPI_Comm_dup_with_info", R::Collective, -1},
    {"MPI_Intercomm_create", R::Collective, -1},
    {"MPI_Intercomm_merge", R::Collective, -1},
    {"MPI_Cart_create", R::Collective, -1},
    {"MPI_Cart_sub", R::Collective, -1},
    {"MPI_Graph_create", R::Collective, -1},
    {"MPI_Dist_graph_create", R::Collective, -1},
    {"MPI_Dist_graph_create_adjacent", R::Collective, -1},
    {"MPI_Win_create", R::Collective, -1},
    {"MPI_Win_allocate", R::Collective, -1},
    {"MPI_Win_allocate_shared", R::Collective, -1},
    {"MPI_Win_create_dynamic", R::Collective, -1},
    {"MPI_Win_fence", R::Collective, -1},
    {"MPI_Win_free", R::Collective, -1},
    // MPI-IO: opening a file is collective over the communicator it is
    // opened on. (The calls on an open file name only its handle, whose
    // communicator may be MPI_COMM_SELF: not catalogued.)
    {"MPI_File_open", R::Collective, -1},
    {"MPI_Finalize", R::Collective, -1},
    // MPI: point-to-point and local calls.
    {"MPI_Send", R::PointToPoint, -1},
    {"MPI_Ssend", R::PointToPoint, -1},
    {"MPI_Bsend", R::PointToPoint, -1},
    {"MPI_Rsend", R::PointToPoint, -1},
    {"MPI_Isend", R::PointToPoint, -1},
    {"MPI_Issend", R::PointToPoint, -1},
    {"MPI_Recv", R::PointToPoint, -1},
    {"MPI_Irecv", R::PointToPoint, -1},
    {"MPI_Sendrecv", R::PointToPoint, -1},
    {"MPI_Sendrecv_replace", R::PointToPoint, -1},
    {"MPI_Probe", R::PointToPoint, -1},
    {"MPI_Iprobe", R::PointToPoint, -1},
    {"MPI_Wait", R::Local, -1},
    {"MPI_Waitall", R::Local, -1},
    {"MPI_Test", R::Local, -1},
    {"MPI_Comm_rank", R::RankSource, 1},
    {"MPI_Comm_size", R::UniformSource, 1},
    // The process's device and host differ between ranks on a node.
    {"c10::cuda::current_device", R::RankSource, -1},
    {"at::cuda::current_device", R::RankSource, -1},
    {"cudaGetDevice", R::RankSource, 0},
    // What GPU model a device is: a job's GPUs are one model, so these are
    // the same on every rank, though each asks about its own device. Where
    // the device sits is not (cudaDeviceGetPCIBusId, and a cudaDeviceProp's
    // PCI location and UUID: see RankUniformity).
    {"cudaGetDeviceProperties", R::DeviceProperty, 0},
    {"cudaGetDeviceProperties_v2", R::DeviceProperty, 0},
    {"cudaDeviceGetAttribute", R::DeviceProperty, 0},
    {"cuDeviceGetAttribute", R::DeviceProperty, 0},
    {"cuDeviceComputeCapability", R::DeviceProperty, 0},
    {"cuDeviceGetName", R::DeviceProperty, 0},
    {"hipGetDeviceProperties", R::DeviceProperty, 0},
    {"hipDeviceGetAttribute", R::DeviceProperty, 0},
    {"hipDeviceComputeCapability", R::DeviceProperty, 0},
    {"at::cuda::getDeviceProperties", R::DeviceProperty, -1},
    {"gethostname", R::RankSource, 0},
    {"getpid", R::RankSource, -1},
};

} // namespace

CollectiveCatalogue CollectiveCatalogue::withDefaults() {
  CollectiveCatalogue Catalogue;
  for (const char *Class : C10dClasses)
    for (const DefaultEntry &E : C10dMethods)
      Catalogue.add(std::string(Class) + "::" + E.Pattern, E.Role, E.Arg);
  for (const DefaultEntry &E : OtherEntries)
    Catalogue.add(E.Pattern, E.Role, E.Arg);
  return Catalogue;
}

} // namespace ddp
