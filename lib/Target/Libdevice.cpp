//===- Libdevice.cpp - where CUDA's libdevice bitcode is ------------------===//
//
// Finds libdevice.10.bc in the places Libdevice.h lists, in that order.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/Libdevice.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <vector>

using namespace mlir::tile;

namespace {
constexpr const char *kFileName = "libdevice.10.bc";

std::string getEnv(const char *name) {
  std::optional<std::string> value = llvm::sys::Process::GetEnv(name);
  return value ? *value : std::string();
}

bool isFile(llvm::StringRef path) {
  return !path.empty() && llvm::sys::fs::is_regular_file(path);
}

/// lib/python3.*/{site,dist}-packages/triton/backends/nvidia/lib under
/// `prefix`.
void addTritonCandidates(llvm::StringRef prefix,
                         std::vector<std::string> &candidates) {
  if (prefix.empty())
    return;
  llvm::SmallString<256> lib(prefix);
  llvm::sys::path::append(lib, "lib");
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(lib, ec), end; !ec && it != end;
       it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (!name.starts_with("python3"))
      continue;
    for (const char *packages : {"site-packages", "dist-packages"}) {
      llvm::SmallString<256> path(it->path());
      llvm::sys::path::append(path, packages, "triton", "backends", "nvidia");
      llvm::sys::path::append(path, "lib", kFileName);
      candidates.push_back(path.str().str());
    }
  }
}

LibdeviceLocation search() {
  LibdeviceLocation location;
  if (std::optional<std::string> chosen =
          llvm::sys::Process::GetEnv("TILE_LIBDEVICE")) {
    if (chosen->empty() || *chosen == "none") {
      location.problem = "TILE_LIBDEVICE is '" + *chosen + "'";
      return location;
    }
    if (!isFile(*chosen)) {
      location.problem =
          "TILE_LIBDEVICE names '" + *chosen + "', which is not a file";
      location.invalid = true;
      return location;
    }
    location.path = *chosen;
    return location;
  }
  std::vector<std::string> candidates;
  candidates.push_back(getEnv("TRITON_LIBDEVICE_PATH"));
  auto addCuda = [&](llvm::StringRef root) {
    if (root.empty())
      return;
    llvm::SmallString<256> path(root);
    llvm::sys::path::append(path, "nvvm", "libdevice", kFileName);
    candidates.push_back(path.str().str());
  };
  addCuda(getEnv("CUDA_HOME"));
  addCuda(getEnv("CUDA_PATH"));
  addCuda("/usr/local/cuda");
  if (llvm::ErrorOr<std::string> ptxas = llvm::sys::findProgramByName("ptxas"))
    addCuda(llvm::sys::path::parent_path(llvm::sys::path::parent_path(*ptxas)));
  candidates.push_back(
      (llvm::Twine("/usr/lib/nvidia-cuda-toolkit/libdevice/") + kFileName)
          .str());
  addTritonCandidates(getEnv("VIRTUAL_ENV"), candidates);
  addTritonCandidates(getEnv("CONDA_PREFIX"), candidates);
  if (llvm::ErrorOr<std::string> python =
          llvm::sys::findProgramByName("python3"))
    addTritonCandidates(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(*python)),
        candidates);
  std::string home = getEnv("HOME");
  if (!home.empty())
    addTritonCandidates(home + "/.local", candidates);
  addTritonCandidates("/usr/local", candidates);
  addTritonCandidates("/usr", candidates);
  for (const std::string &candidate : candidates)
    if (isFile(candidate)) {
      location.path = candidate;
      return location;
    }
  location.problem = "libdevice.10.bc was not found (set TILE_LIBDEVICE to "
                     "its path; CUDA has it in nvvm/libdevice/, Triton in "
                     "triton/backends/nvidia/lib/)";
  return location;
}
} // namespace

const LibdeviceLocation &mlir::tile::findLibdevice() {
  static const LibdeviceLocation location = search();
  return location;
}

std::string mlir::tile::getLibdeviceIdentity() {
  const LibdeviceLocation &location = findLibdevice();
  if (location.path.empty())
    return "none";
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(location.path, status))
    return location.path;
  return location.path + ":" + std::to_string(status.getSize()) + ":" +
         std::to_string(
             status.getLastModificationTime().time_since_epoch().count());
}
