//===- EmitPTX.cpp - LLVM dialect to PTX ----------------------------------===//
//
// Translates the LLVM-dialect module to LLVM IR, sets the NVPTX triple and
// data layout (32-bit shared pointers), links the libdevice functions it
// calls (libdevice.X), runs LLVM's O3 pipeline and emits PTX
// assembly for the chosen SM with multiply-add fusion on, as Triton does. The
// target machine is created once per target and thread, and reused.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/EmitPTX.h"
#include "tile/Target/Libdevice.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include <map>
#include <memory>
#include <mutex>
#include <set>

using namespace mlir;

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

void mlir::tile::registerLLVMTranslations(DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

static constexpr const char *kTriple = "nvptx64-nvidia-cuda";

static void initializeNVPTX() {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // 32-bit shared-memory pointers (as Triton and nvcc use): shared
    // addresses fit in 32 bits, and 64-bit ones cost conversions and
    // registers on every scratch access. The data layout reads the option
    // when the target machine is created.
    auto &options = llvm::cl::getRegisteredOptions();
    auto shortPointers = options.find("nvptx-short-ptr");
    if (shortPointers != options.end())
      *static_cast<llvm::cl::opt<bool> *>(shortPointers->second) = true;
  });
}

std::string mlir::tile::checkTarget(StringRef target) {
  initializeNVPTX();
  std::string error;
  llvm::Triple triple(kTriple);
  const llvm::Target *nvptx = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!nvptx)
    return error;
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      nvptx->createMCSubtargetInfo(triple, "", ""));
  if (info && target.starts_with("sm_") && info->isCPUStringValid(target))
    return "";
  std::string known;
  if (info)
    for (const llvm::SubtargetSubTypeKV &cpu :
         info->getAllProcessorDescriptions())
      if (StringRef(cpu.Key).starts_with("sm_8") ||
          StringRef(cpu.Key).starts_with("sm_9"))
        known += (known.empty() ? "" : ", ") + std::string(cpu.Key);
  return "unknown GPU architecture '" + target.str() + "' (expected one of " +
         known + ")";
}

/// The NVPTX target machine for `target`, created on first use.
static llvm::TargetMachine *getTargetMachine(StringRef target,
                                             std::string &error) {
  initializeNVPTX();
  error = mlir::tile::checkTarget(target);
  if (!error.empty())
    return nullptr;
  // One machine per thread and target: code generation may run on several
  // threads at once (autotuning compiles its configurations in parallel),
  // and a TargetMachine is not meant to be shared between them.
  thread_local std::map<std::string, std::unique_ptr<llvm::TargetMachine>>
      machines;
  auto &machine = machines[target.str()];
  if (machine)
    return machine.get();
  llvm::Triple triple(kTriple);
  const llvm::Target *nvptx = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!nvptx)
    return nullptr;
  // sm_90a's wgmma/setmaxnreg need PTX 8.0; LLVM's default for a CPU may be
  // lower.
  std::string features = target.starts_with("sm_9") ? "+ptx80" : "";
  // Multiply-adds fuse into fma, as Triton's default (enable_fp_fusion).
  llvm::TargetOptions options;
  options.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  machine.reset(nvptx->createTargetMachine(triple, target, features, options,
                                           std::nullopt, std::nullopt,
                                           llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    error =
        "LLVM cannot create an NVPTX target machine for '" + target.str() + "'";
  return machine.get();
}

/// Links the libdevice functions `llvmModule` calls (declared __nv_*
/// functions) into it, as clang and Triton do: only the functions needed,
/// made internal so that the optimizer inlines them and drops the rest, with
/// __nvvm_reflect("__CUDA_FTZ") answering 1, as Triton 3.6's NVIDIA backend
/// sets it (its PTX for tl.exp2, tl.sqrt, tl.log takes libdevice's .ftz
/// paths: ex2.approx.ftz.f32, sqrt.approx.ftz.f32, fma.rn.ftz.f32), so that
/// Tile's results are Triton's.
static LogicalResult linkLibdevice(ModuleOp module, llvm::Module &llvmModule) {
  std::string needed;
  for (const llvm::Function &function : llvmModule)
    if (function.isDeclaration() && function.getName().starts_with("__nv_")) {
      needed = function.getName().str();
      break;
    }
  if (needed.empty())
    return success();
  const tile::LibdeviceLocation &location = tile::findLibdevice();
  if (location.path.empty())
    return module.emitError() << "libdevice function " << needed
                              << " is called, but " << location.problem,
           failure();
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> library =
      llvm::parseIRFile(location.path, diagnostic, llvmModule.getContext());
  if (!library)
    return module.emitError() << "cannot read libdevice '" << location.path
                              << "': " << diagnostic.getMessage().str(),
           failure();
  library->setTargetTriple(llvmModule.getTargetTriple());
  library->setDataLayout(llvmModule.getDataLayout());
  std::set<std::string> own;
  for (const llvm::GlobalValue &value : llvmModule.global_values())
    if (!value.getName().starts_with("__nv_"))
      own.insert(value.getName().str());
  if (llvm::Linker::linkModules(llvmModule, std::move(library),
                                llvm::Linker::Flags::LinkOnlyNeeded))
    return module.emitError()
               << "linking libdevice '" << location.path << "' failed",
           failure();
  llvm::internalizeModule(llvmModule, [&](const llvm::GlobalValue &value) {
    return own.count(value.getName().str()) != 0;
  });
  llvmModule.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz",
                           uint32_t(1));
  return success();
}

/// LLVM IR for `module`, optimized for `machine`.
static std::unique_ptr<llvm::Module>
translateAndOptimize(ModuleOp module, llvm::LLVMContext &llvmContext,
                     llvm::TargetMachine *machine) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule) {
    module.emitError("translation to LLVM IR failed");
    return nullptr;
  }
  llvmModule->setTargetTriple(llvm::Triple(kTriple));
  llvmModule->setDataLayout(machine->createDataLayout());
  if (failed(linkLibdevice(module, *llvmModule)))
    return nullptr;

  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(machine);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  passes.run(*llvmModule, mam);
  return llvmModule;
}

FailureOr<std::string> mlir::tile::emitLLVMIR(ModuleOp module,
                                              StringRef target) {
  std::string error;
  llvm::TargetMachine *machine = getTargetMachine(target, error);
  if (!machine)
    return module.emitError(error), failure();
  llvm::LLVMContext llvmContext;
  auto llvmModule = translateAndOptimize(module, llvmContext, machine);
  if (!llvmModule)
    return failure();
  std::string text;
  llvm::raw_string_ostream os(text);
  llvmModule->print(os, nullptr);
  return text;
}

FailureOr<std::string> mlir::tile::emitPTX(ModuleOp module, StringRef target) {
  std::string error;
  llvm::TargetMachine *machine = getTargetMachine(target, error);
  if (!machine)
    return module.emitError(error), failure();
  llvm::LLVMContext llvmContext;
  auto llvmModule = translateAndOptimize(module, llvmContext, machine);
  if (!llvmModule)
    return failure();
  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream os(ptx);
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, os, nullptr,
                                   llvm::CodeGenFileType::AssemblyFile))
    return module.emitError("the NVPTX backend cannot emit assembly"),
           failure();
  codegen.run(*llvmModule);
  return std::string(ptx.str());
}
