//===- LaunchModel.cpp - What the templates render, as data ---------------===//
#include "codegen/LaunchModel.h"

using namespace tilecc::ir;
using namespace tilecc::analysis;
using nlohmann::json;

namespace tilecc::codegen {

namespace {

std::string dimsList(llvm::ArrayRef<unsigned> V) {
  std::string S = "rt::dims{";
  for (unsigned I = 0; I < V.size(); ++I)
    S += (I ? ", " : "") + std::to_string(V[I]);
  return S + "}";
}

std::string shapeList(llvm::ArrayRef<int64_t> V) {
  std::string S;
  for (unsigned I = 0; I < V.size(); ++I)
    S += (I ? ", " : "") + std::to_string(V[I]);
  return S;
}

std::string blockedSpelling(const BlockedLayout &B,
                            llvm::ArrayRef<int64_t> Shape) {
  std::string Tail;
  if (!B.WarpOrder.empty())
    Tail = ", " + dimsList(B.WarpOrder);
  if (!B.WarpReps.empty() || !Tail.empty()) {
    llvm::SmallVector<unsigned, 2> Reps(B.rank(), 1);
    for (unsigned D = 0; D < B.rank(); ++D)
      Reps[D] = B.warpReps(D);
    Tail = ", " + dimsList(Reps) + Tail;
  }
  return "rt::blocked<rt::dims{" + shapeList(Shape) + "}, " +
         dimsList(B.SizePerThread) + ", " + dimsList(B.ThreadsPerWarp) + ", " +
         dimsList(B.WarpsPerCTA) + ", " + dimsList(B.Order) + Tail + ">";
}

/// How the metadata names a parameter's specialization.
std::string specName(ParamSpec S) {
  if (S == ParamSpec::EqualsOne)
    return "equals1";
  if (S == ParamSpec::Aligned16)
    return "aligned16";
  if (divisorOf(S) > 1)
    return "divisible" + std::to_string(divisorOf(S));
  return "none";
}

/// The wrapper's run-time test for specialization S.
std::string condition(const Function &F, const Specialization &S) {
  std::string C;
  for (unsigned I = 0; I < F.Params.size(); ++I) {
    const Param &P = F.Params[I];
    std::string Test;
    if (S.Specs[I] == ParamSpec::EqualsOne)
      Test = P.Host + " == 1";
    else if (S.Specs[I] == ParamSpec::Aligned16 &&
             P.Arg->type().Elem.isPointer())
      Test = "reinterpret_cast<std::uintptr_t>(" + P.Host + ") % 16 == 0";
    else if (divisorOf(S.Specs[I]) > 1)
      Test = P.Host + " % " + std::to_string(divisorOf(S.Specs[I])) + " == 0";
    else
      continue;
    C += (C.empty() ? "" : " &&\n      ") + Test;
  }
  return C.empty() ? "true" : C;
}

/// Arguments of the <<<>>> launch: pointers to tile::half, tile::bfloat16
/// and the 8-bit floats become pointers to the device types of the same
/// layout, and pointers to 64-bit integers to int64_t/uint64_t (long long
/// and long are distinct types of one layout); scalars of those floats are
/// copied bit for bit into the device types.
std::string launchArgs(const Function &F) {
  const auto NarrowFloat = {ScalarKind::F8E4M3, ScalarKind::F8E5M2,
                            ScalarKind::F16, ScalarKind::BF16};
  std::string S;
  for (unsigned I = 0; I < F.Params.size(); ++I) {
    const Param &P = F.Params[I];
    const ElemType &E = P.Arg->type().Elem;
    std::string A = P.Host;
    if (E.isPointer() &&
        (llvm::is_contained(NarrowFloat, E.Pointee) ||
         E.Pointee == ScalarKind::I64 || E.Pointee == ScalarKind::U64))
      A = "reinterpret_cast<" + deviceType(E) + ">(" + A + ")";
    else if (!E.isPointer() && llvm::is_contained(NarrowFloat, E.Kind))
      A = "rt::same_bits<" + deviceType(E) + ">(" + A + ")";
    S += (I ? ", " : "") + A;
  }
  return S;
}

/// A scalar of F as the launch wrapper spells it: a parameter by its name,
/// a constant by its value.
std::string hostScalar(const Function &F, const Value *V) {
  if (auto I = paramIndex(F, V))
    return F.Params[*I].Host;
  return std::to_string(V->definingOp()->intValue());
}

/// What the wrapper encodes tensor map M from: the tensor's base, its
/// extents along the box's inner and outer dimensions (an axis without a
/// mask ends with the box), its row stride and, for a stack of 2-D
/// tensors, the elements between them.
json tensorMapModel(const Function &F, const EmittedKernel::TensorMapParam &M) {
  const TensorMapAccess &Map = *M.Access;
  const TensorMapAxis &Outer = Map.Axes[Map.outerDim()];
  auto Extent = [&](unsigned Dim) {
    const TensorMapAxis &Axis = Map.Axes[Dim];
    return Axis.Bound ? hostScalar(F, Axis.Bound)
                      : std::to_string(Axis.Start + M.BoxShape[Dim]);
  };
  return {{"name", M.Name},
          {"stage", M.Stage},
          {"base", hostScalar(F, Map.Base)},
          {"inner", Extent(Map.InnerDim)},
          {"outer", Extent(Map.outerDim())},
          {"row_stride", hostScalar(F, Outer.Stride)},
          {"batch_stride", Map.Batch
                               ? "std::uint64_t(" + Extent(Map.outerDim()) +
                                     ") * " + hostScalar(F, Outer.Stride)
                               : ""},
          {"adds", M.Adds}};
}

} // namespace

std::string LayoutTable::name(const Layout &L, llvm::ArrayRef<int64_t> Shape) {
  std::string Key = L.str() + " over [" + shapeList(Shape) + "]";
  auto It = Index.find(Key);
  if (It != Index.end())
    return Entries[It->second]["name"];
  std::string Name = "L" + std::to_string(Entries.size());
  std::string Spelling =
      L.SliceDim ? "rt::sliced<" + std::to_string(*L.SliceDim) + ", " +
                       blockedSpelling(L.Parent, parentShape(L, Shape)) + ">"
                 : blockedSpelling(L.Parent, Shape);
  Index[Key] = Entries.size();
  Entries.push_back({{"name", Name},
                     {"description", L.str()},
                     {"shape", shapeList(Shape)},
                     {"spelling", Spelling}});
  return Name;
}

std::string launchBounds(unsigned Threads, unsigned MinPrograms,
                         bool SetsRegisters, const TargetDesc &Target) {
  std::string Bounds = "__launch_bounds__(" + std::to_string(Threads);
  if (MinPrograms <= 1 && !SetsRegisters)
    return Bounds + ")";
  if (Target.Back == Backend::CUDA)
    return Bounds + ", " + std::to_string(MinPrograms) + ")";
  unsigned WavesPerSimd =
      (MinPrograms * Threads + 4 * Target.WarpSize - 1) / (4 * Target.WarpSize);
  return Bounds + ") __attribute__((amdgpu_waves_per_eu(" +
         std::to_string(WavesPerSimd) + ")))";
}

std::string metaText(const frontend::Kernel &K, const frontend::Config &C) {
  std::string S;
  for (unsigned I = 0; I < K.MetaNames.size() && I < C.Meta.size(); ++I)
    S += (I ? ", " : "") + K.MetaNames[I] + "=" + std::to_string(C.Meta[I]);
  return S.empty() ? "no meta-parameters" : S;
}

std::string hostParams(const Function &F, bool Leading) {
  std::string S;
  for (auto [I, P] : llvm::enumerate(F.HostParams)) {
    const std::string &T = P.CxxType;
    S += (I || Leading ? ", " : "") + T + (T.back() == '*' ? "" : " ") + P.Name;
  }
  return S;
}

std::string argNames(const Function &F, bool Leading) {
  std::string S;
  for (auto [I, P] : llvm::enumerate(F.HostParams))
    S += (I || Leading ? ", " : "") + P.Name;
  return S;
}

json commonModel(const frontend::Kernel &K, const GenerateOptions &Opts) {
  const HostApi &Host = Opts.Target.host();
  return {
      {"version", Opts.Version},
      {"source", Opts.SourcePath},
      {"target", Opts.Target.Name},
      {"kernel", K.Name},
      {"qualified", K.QualifiedName},
      {"kernel_ext", Opts.Target.kernelExtension().str()},
      {"runtime_header", Host.RuntimeHeader.str()},
      {"err_t", Host.Error.str()},
      {"stream_t", Host.Stream.str()},
      {"get_last_error", Host.GetLastError.str()},
      {"success", Host.Success.str()},
      {"invalid_value", Host.InvalidValue.str()},
      {"not_supported", Host.NotSupported.str()},
      {"func_set_attribute", Host.FuncSetAttribute.str()},
      {"max_dynamic_shared_memory", Host.MaxDynamicSharedMemory.str()},
  };
}

json variantModel(const BuiltVariant &B, llvm::ArrayRef<BuiltVariant> Built,
                  const frontend::Kernel &K,
                  const frontend::KernelInstance &Inst, bool DependentLaunch,
                  bool Occupancy) {
  const Function &F = *Inst.Fn;
  const VariantPlan &VP = *B.Plan;
  const EmittedKernel &E = B.E;
  json Tiles = json::array(), Accesses = json::array();
  for (const std::string &T : E.TileComments)
    Tiles.push_back({{"line", T}});
  for (const std::string &A : E.Accesses)
    Accesses.push_back({{"line", A}});
  json Maps = json::array();
  std::string MapArgs;
  for (const auto &M : E.TensorMaps) {
    Maps.push_back(tensorMapModel(F, M));
    MapArgs += ", " + M.Name;
  }
  const std::string LaunchArgs = launchArgs(F) + MapArgs;
  std::string Described = B.Described;
  for (const BuiltVariant &Other : Built)
    if (Other.SameAs == B.Name)
      Described += "; also the kernel of " + Other.Plan->Suffix +
                   " launches (the same code)";
  return {{"name", B.Name},
          {"meta", metaText(K, Inst.Cfg)},
          {"num_warps", Inst.Cfg.NumWarps},
          {"threads", B.Threads},
          {"launch_bounds", B.LaunchBounds},
          {"smem_bytes", E.DynamicSharedBytes},
          {"static_smem_bytes", E.StaticSharedBytes},
          {"dynamic_smem", E.DynamicSharedBytes > 0},
          {"specialization", Described},
          {"tensor_maps", Maps},
          {"tma", !VP.Tma.empty()},
          {"twin", VP.Twin},
          {"arch_only", !VP.Tma.empty() || VP.Twin},
          {"occupancy", Occupancy},
          {"tiles", Tiles},
          {"accesses", Accesses},
          {"device_params", E.Params},
          {"body", E.Body},
          {"host_params", hostParams(F, true)},
          {"dependent_launch", DependentLaunch},
          {"launch_args", LaunchArgs},
          {"kernel_and_args",
           B.Name + (LaunchArgs.empty() ? "" : ", " + LaunchArgs)}};
}

json variantMetadata(const BuiltVariant &B, unsigned C,
                     const frontend::KernelInstance &Inst) {
  const Function &F = *Inst.Fn;
  const VariantPlan &VP = *B.Plan;
  const Specialization &S = *VP.Spec;
  json Spec = json::object();
  for (unsigned I = 0; I < F.Params.size(); ++I)
    Spec[F.Params[I].Name] = specName(S.Specs[I]);
  json Access = json::array();
  for (const std::string &A : B.E.Accesses)
    Access.push_back(A);
  return {{"name", B.Name},
          {"config", C},
          {"num_warps", Inst.Cfg.NumWarps},
          {"threads", B.Threads},
          {"warp_specialized", B.WarpSpecialized},
          {"pingpong", B.PingPong},
          {"specialization", Spec},
          {"tma", !VP.Tma.empty()},
          {"built_for", !VP.Tma.empty() ? "sm_90 on"
                        : VP.Twin       ? "below sm_90"
                                        : "every arch"},
          {"accesses", Access},
          {"tiles", B.E.TileComments},
          {"resources", json::object()}};
}

/// The fields of configuration C's model that do not depend on its
/// variants.
static json configFields(const frontend::Kernel &K, unsigned C) {
  const frontend::KernelInstance &Inst = K.Instances[C];
  json Meta = json::object();
  for (unsigned I = 0; I < K.MetaNames.size() && I < Inst.Cfg.Meta.size(); ++I)
    Meta[K.MetaNames[I]] = Inst.Cfg.Meta[I];
  return {{"index", C},
          {"meta", metaText(K, Inst.Cfg)},
          {"meta_values", Meta},
          {"num_warps", Inst.Cfg.NumWarps},
          {"num_stages", Inst.Cfg.NumStages},
          {"grid_params", Inst.GridParams},
          {"grid_body", Inst.GridBody},
          {"select_params", Inst.SelectParams},
          {"select_body", Inst.SelectBody},
          {"args", argNames(*Inst.Fn, false)},
          {"left_out", false}};
}

json configModel(const frontend::Kernel &K, unsigned C,
                 llvm::ArrayRef<BuiltVariant> Built,
                 llvm::ArrayRef<std::string> Occupancy) {
  const Function &F = *K.Instances[C].Fn;
  json OccupancyNames = json::array();
  for (const std::string &Name : Occupancy)
    OccupancyNames.push_back({{"name", Name}});
  json ConfigVariants = json::array();
  for (unsigned I = 0; I < Built.size(); ++I) {
    const BuiltVariant &B = Built[I];
    const VariantPlan &VP = *B.Plan;
    const bool Declines = !VP.Tma.empty() || (VP.Twin && B.SameAs.empty());
    // An entry is left out where the next one launches the same kernel
    // for any arguments.
    const bool Redundant = !B.SameAs.empty() && I + 1 < Built.size() &&
                           Built[I + 1].launched() == B.SameAs &&
                           Built[I + 1].Plan->Guard.empty();
    if (!Redundant)
      ConfigVariants.push_back({{"name", B.launched()},
                                {"guard", VP.Guard},
                                {"declines", Declines},
                                {"call_args", argNames(F, true)}});
  }
  json Model = configFields(K, C);
  Model["occupancy"] = OccupancyNames;
  Model["variants"] = ConfigVariants;
  return Model;
}

json leftOutConfigModel(const frontend::Kernel &K, unsigned C,
                        const std::string &Reason) {
  json Model = configFields(K, C);
  Model["left_out"] = true;
  Model["left_out_reason"] = Reason;
  Model["occupancy"] = json::array();
  Model["variants"] = json::array();
  return Model;
}

void assignShards(json &Variants, std::vector<ShardGroup> Groups,
                  ShardPlanner &Shards, const std::string &KernelFile) {
  // The largest first: they are the hardest to balance.
  llvm::stable_sort(Groups, [](const ShardGroup &A, const ShardGroup &B) {
    return std::max(A.WithTma, A.WithoutTma) >
           std::max(B.WithTma, B.WithoutTma);
  });
  llvm::StringMap<unsigned> ShardOf;
  for (const ShardGroup &G : Groups) {
    unsigned Shard = Shards.place(KernelFile, G.WithTma, G.WithoutTma);
    for (const std::string &Name : G.Names)
      ShardOf[Name] = Shard;
  }
  // Variants of one shard in a row share its #if.
  for (size_t I = 0; I < Variants.size(); ++I) {
    json &V = Variants[I];
    V["shard"] = ShardOf.lookup(V["name"].get<std::string>());
    V["shards"] = Shards.count();
    V["shard_opens"] = I == 0 || Variants[I - 1]["shard"] != V["shard"];
    if (I > 0)
      Variants[I - 1]["shard_closes"] = V["shard_opens"];
  }
  if (!Variants.empty())
    Variants.back()["shard_closes"] = true;
}

json specializationFlags(llvm::ArrayRef<Specialization> Specs,
                         const json &Configs, const Function &F) {
  auto Tested = [&](const Specialization &S) {
    for (const json &C : Configs)
      for (const json &V : C["variants"])
        if (V["guard"].get<std::string>().find(flagName(S)) !=
            std::string::npos)
          return true;
    return false;
  };
  json SpecFlags = json::array();
  for (const Specialization &S : Specs)
    if (!S.isGeneric() && Tested(S))
      SpecFlags.push_back({{"name", flagName(S)},
                           {"description", S.Description},
                           {"condition", condition(F, S)}});
  return SpecFlags;
}

json kernelMetadata(const frontend::Kernel &K, const GenerateOptions &Opts,
                    const json &Configs, const json &Metadata,
                    const json &Layouts, const std::string &KernelFile) {
  json Meta = {
      {"tilecc_version", Opts.Version},
      {"source", Opts.SourcePath},
      {"target", Opts.Target.Name},
      {"kernel", K.QualifiedName},
      {"files", {KernelFile, K.Name + ".launch.h", K.Name + ".launch.cpp"}},
      {"configs", Configs},
      {"variants", Metadata},
      {"layouts", Layouts}};
  for (auto &C : Meta["configs"]) {
    C.erase("variants");
    C.erase("args");
    C.erase("select_params");
    C.erase("grid_params");
    C.erase("occupancy");
  }
  return Meta;
}

} // namespace tilecc::codegen
