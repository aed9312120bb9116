//===- KernelCache.h - compiled kernels and tuning on disk ------*- C++ -*-===//
//
// An on-disk cache of what compiling a kernel produced (PTX, or the CUDA
// driver's cubin with its JIT log) and of autotuning choices, so that a
// second run of the same kernel skips the pipeline, the driver's JIT, or
// the tuning.
//
// An entry is one file, named by the hex SHA-256 of its key text (every
// input the result depends on, compiler version included), under
// DIR/kernels/ or DIR/autotune/. It starts with one text line
//
//   TILECACHE 1 <kind> <key> <payload bytes> <FNV-1a 64 of the payload>
//
// followed by the payload. Entries are written to a temporary file and
// renamed into place, so readers never see half an entry; a reader that
// finds one that does not validate (another kind or key, a length or
// checksum that does not match) reports it once as a note, deletes it and
// treats it as a miss. A directory that cannot be written turns the cache
// off for the process with one warning. Nothing here fails a run.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DRIVER_KERNELCACHE_H
#define TILE_DRIVER_KERNELCACHE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tile::cache {

/// The fields a cached result depends on, as unambiguous text
/// (`name=<length>:value` lines), and its hash.
class KeyBuilder {
public:
  KeyBuilder &add(llvm::StringRef name, llvm::StringRef value);
  KeyBuilder &add(llvm::StringRef name, int64_t value);
  const std::string &text() const { return keyText; }
  /// The SHA-256 of text(), as 64 lowercase hex digits.
  std::string digest() const;

private:
  std::string keyText;
};

/// Every input the PTX of a kernel depends on, besides the compiler.
struct PTXKeyFields {
  /// "tile" or "mlir".
  llvm::StringRef input;
  llvm::StringRef source;
  llvm::StringRef kernel;
  /// getSpecializationKey's text (empty for .mlir kernels).
  llvm::StringRef specialization;
  unsigned numWarps = 4;
  unsigned numStages = 3;
  llvm::StringRef target;
  bool wideOffsets = false;
  bool warpSpecializeAll = false;
  bool pingPong = true;
  /// CompileOptions::persistentPrograms.
  bool persistentPrograms = false;
  /// CompileOptions::hoistTensorMaps.
  bool hoistTensorMaps = false;
  /// getLibdeviceIdentity().
  llvm::StringRef libdevice;
};

/// The key of a kernel's PTX entry, as tile-run and the C++ API build it.
std::string getPTXKey(const PTXKeyFields &fields);

/// A string that changes whenever the compiler does: Tile's version, the
/// LLVM it was built with and the GNU build ids of the object holding
/// Tile's code (the tool's executable, or libtile.so) and of the LLVM and
/// MLIR libraries it loaded (the size and modification time of Tile's
/// object where it has no build id). A program that uses the API does not
/// change it by being rebuilt.
const std::string &getCompilerVersion();

/// FNV-1a, 64 bits.
uint64_t fnv1a64(llvm::StringRef data);

/// Where the cache lives and whether it is on.
struct CacheLocation {
  std::string dir;
  /// Why it is off, or empty.
  std::string disabledBecause;
};

/// $TILE_CACHE_DIR, else $XDG_CACHE_HOME/tile, else ~/.cache/tile; off
/// when `noCache` or TILE_CACHE_DISABLE is set (to anything but "" or "0").
CacheLocation getCacheLocation(bool noCache);

enum class EntryKind { PTX, Cubin, Autotune };
llvm::StringRef getKindName(EntryKind kind);

/// The cache of one process. Messages go to `diagOS` prefixed by `tool`:
/// notes for corrupt entries, a warning when the directory cannot be
/// written, and with `verbose` one line per lookup and store.
class KernelCache {
public:
  KernelCache(CacheLocation location, llvm::StringRef tool,
              llvm::raw_ostream &diagOS, bool verbose);

  bool isEnabled() const { return disabledBecause.empty(); }
  const std::string &getDir() const { return dir; }
  const std::string &getDisabledReason() const { return disabledBecause; }

  /// The file an entry lives in.
  std::string getPath(EntryKind kind, llvm::StringRef key) const;
  /// The payload of the entry, or nullopt on a miss. A corrupt entry is
  /// reported, deleted and missed.
  std::optional<std::string> lookup(EntryKind kind, llvm::StringRef key);
  /// Writes the entry atomically; on failure warns once and turns the
  /// cache off. Returns whether the entry was written.
  bool store(EntryKind kind, llvm::StringRef key, llvm::StringRef payload);
  /// Reports an entry whose payload does not make sense to its user (the
  /// envelope validated) as corrupt and deletes it.
  void discard(EntryKind kind, llvm::StringRef key, llvm::StringRef reason);

private:
  void reportCorrupt(EntryKind kind, const std::string &path,
                     llvm::StringRef reason);

  std::string dir;
  std::string disabledBecause;
  std::string tool;
  llvm::raw_ostream &diagOS;
  bool verbose;
  llvm::StringSet<> reported;
};

/// The payload of a cubin entry: the cubin and the JIT's info log (ptxas's
/// registers and spills, which --info reports).
std::string packCubin(llvm::StringRef cubin, llvm::StringRef infoLog);
bool unpackCubin(llvm::StringRef payload, std::string &cubin,
                 std::string &infoLog);

} // namespace tile::cache

#endif // TILE_DRIVER_KERNELCACHE_H
