//===- KernelCache.cpp - compiled kernels and tuning results on disk ------===//

#include "tile/Driver/KernelCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"

#include <cstring>
#include <elf.h>
#include <link.h>
#include <sys/stat.h>

using namespace tile;
using namespace tile::cache;

namespace {
constexpr const char *kMagic = "TILECACHE";
constexpr int kFormat = 1;
// Longer than any valid header line: a file without a newline in its first
// bytes is not an entry.
constexpr size_t kMaxHeader = 256;
constexpr const char *kTileVersion = "tile 0.1";
} // namespace

//===----------------------------------------------------------------------===//
// Keys and the compiler's version
//===----------------------------------------------------------------------===//

KeyBuilder &KeyBuilder::add(llvm::StringRef name, llvm::StringRef value) {
  keyText +=
      (name + "=" + llvm::Twine(value.size()) + ":" + value + "\n").str();
  return *this;
}

KeyBuilder &KeyBuilder::add(llvm::StringRef name, int64_t value) {
  return add(name, std::to_string(value));
}

std::string KeyBuilder::digest() const {
  llvm::SHA256 hash;
  hash.update(keyText);
  std::array<uint8_t, 32> result = hash.final();
  return llvm::toHex(result, /*LowerCase=*/true);
}

uint64_t tile::cache::fnv1a64(llvm::StringRef data) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : data) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

namespace {
// The GNU build id in an object's PT_NOTE segments, as hex, or "".
std::string findBuildId(const dl_phdr_info *info) {
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &phdr = info->dlpi_phdr[i];
    if (phdr.p_type != PT_NOTE)
      continue;
    const char *p =
        reinterpret_cast<const char *>(info->dlpi_addr + phdr.p_vaddr);
    const char *end = p + phdr.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) note;
      std::memcpy(&note, p, sizeof(note));
      const char *name = p + sizeof(note);
      const char *desc = name + ((note.n_namesz + 3) & ~3u);
      const char *next = desc + ((note.n_descsz + 3) & ~3u);
      if (next > end)
        break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0)
        return llvm::toHex(
            llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(desc),
                                    note.n_descsz),
            /*LowerCase=*/true);
      p = next;
    }
  }
  return "";
}

/// Whether the object `info` describes holds the code at `address`.
bool contains(const dl_phdr_info *info, uintptr_t address) {
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto &segment = info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + segment.p_vaddr;
    if (segment.p_type == PT_LOAD && address >= start &&
        address < start + segment.p_memsz)
      return true;
  }
  return false;
}

int collectBuildIds(dl_phdr_info *info, size_t, void *data) {
  auto &ids = *static_cast<std::string *>(data);
  llvm::StringRef name = info->dlpi_name ? info->dlpi_name : "";
  // Tile's own code lives in the executable (the tools link its libraries
  // statically) or in libtile.so (programs that use the C++ API): the
  // object that holds this function. The rest of the compiler is LLVM and
  // MLIR, linked statically too or loaded as libLLVM/libMLIR. A program's
  // own executable is no part of the compiler.
  bool isTile = contains(
      info, reinterpret_cast<uintptr_t>(&tile::cache::getCompilerVersion));
  llvm::StringRef file = llvm::sys::path::filename(name);
  if (!isTile && !file.starts_with("libLLVM") && !file.starts_with("libMLIR"))
    return 0;
  std::string id = findBuildId(info);
  if (isTile && id.empty()) {
    // No build id: the file's size and modification time.
    struct stat st;
    std::string path = name.empty() ? "/proc/self/exe" : name.str();
    if (::stat(path.c_str(), &st) == 0)
      id = llvm::formatv("size {0} mtime {1}", int64_t(st.st_size),
                         int64_t(st.st_mtime))
               .str();
    else
      id = "unknown";
  }
  ids += (isTile ? "tile " : file.str() + " ") + id + "; ";
  return 0;
}
} // namespace

const std::string &tile::cache::getCompilerVersion() {
  static const std::string version = [] {
    std::string ids;
    dl_iterate_phdr(collectBuildIds, &ids);
    return std::string(kTileVersion) + " (LLVM " LLVM_VERSION_STRING "); " +
           ids;
  }();
  return version;
}

std::string tile::cache::getPTXKey(const PTXKeyFields &fields) {
  KeyBuilder key;
  key.add("compiler", getCompilerVersion())
      .add("input", fields.input)
      .add("source", fields.source)
      .add("kernel", fields.kernel)
      .add("specialization", fields.specialization)
      .add("num_warps", fields.numWarps)
      .add("num_stages", fields.numStages)
      .add("target", fields.target)
      .add("wide_offsets", fields.wideOffsets ? "yes" : "no")
      .add("warp_specialize_all", fields.warpSpecializeAll ? "yes" : "no")
      .add("ping_pong", fields.pingPong ? "yes" : "no")
      .add("persistent_programs", fields.persistentPrograms ? "yes" : "no")
      .add("hoist_tensor_maps", fields.hoistTensorMaps ? "yes" : "no")
      .add("libdevice", fields.libdevice);
  return key.digest();
}

//===----------------------------------------------------------------------===//
// Where the cache lives
//===----------------------------------------------------------------------===//

CacheLocation tile::cache::getCacheLocation(bool noCache) {
  CacheLocation location;
  if (std::optional<std::string> dir =
          llvm::sys::Process::GetEnv("TILE_CACHE_DIR");
      dir && !dir->empty()) {
    location.dir = *dir;
  } else if (std::optional<std::string> xdg =
                 llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
             xdg && !xdg->empty()) {
    llvm::SmallString<128> path(*xdg);
    llvm::sys::path::append(path, "tile");
    location.dir = path.str().str();
  } else {
    llvm::SmallString<128> home;
    if (llvm::sys::path::home_directory(home)) {
      llvm::sys::path::append(home, ".cache", "tile");
      location.dir = home.str().str();
    }
  }
  std::optional<std::string> disable =
      llvm::sys::Process::GetEnv("TILE_CACHE_DISABLE");
  if (noCache)
    location.disabledBecause = "--no-cache";
  else if (disable && !disable->empty() && *disable != "0")
    location.disabledBecause = "TILE_CACHE_DISABLE=" + *disable;
  else if (location.dir.empty())
    location.disabledBecause =
        "no cache directory (set TILE_CACHE_DIR, XDG_CACHE_HOME or HOME)";
  return location;
}

llvm::StringRef tile::cache::getKindName(EntryKind kind) {
  switch (kind) {
  case EntryKind::PTX:
    return "ptx";
  case EntryKind::Cubin:
    return "cubin";
  case EntryKind::Autotune:
    return "autotune";
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Entries
//===----------------------------------------------------------------------===//

KernelCache::KernelCache(CacheLocation location, llvm::StringRef tool,
                         llvm::raw_ostream &diagOS, bool verbose)
    : dir(std::move(location.dir)),
      disabledBecause(std::move(location.disabledBecause)), tool(tool.str()),
      diagOS(diagOS), verbose(verbose) {}

std::string KernelCache::getPath(EntryKind kind, llvm::StringRef key) const {
  llvm::SmallString<128> path(dir);
  llvm::sys::path::append(path,
                          kind == EntryKind::Autotune ? "autotune" : "kernels");
  llvm::sys::path::append(path, key + "." + getKindName(kind));
  return path.str().str();
}

void KernelCache::reportCorrupt(EntryKind kind, const std::string &path,
                                llvm::StringRef reason) {
  // Once per entry: a rebuilt entry that is corrupt again would loop.
  if (reported.insert(path).second)
    diagOS << tool << ": note: cache entry " << path << " is corrupt ("
           << reason << "); "
           << (kind == EntryKind::Autotune ? "retuning" : "rebuilding") << "\n";
  llvm::sys::fs::remove(path);
}

std::optional<std::string> KernelCache::lookup(EntryKind kind,
                                               llvm::StringRef key) {
  if (!isEnabled())
    return std::nullopt;
  std::string path = getPath(kind, key);
  // Only a regular file is an entry: opening a FIFO (or a device) would
  // block or read forever.
  llvm::sys::fs::file_status status;
  if (!llvm::sys::fs::status(path, status) &&
      status.type() != llvm::sys::fs::file_type::regular_file) {
    reportCorrupt(kind, path, "not a regular file");
    return std::nullopt;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file) {
    if (verbose)
      diagOS << tool << ": cache: miss " << path << "\n";
    return std::nullopt;
  }
  llvm::StringRef data = (*file)->getBuffer();
  size_t newline = data.substr(0, kMaxHeader).find('\n');
  if (newline == llvm::StringRef::npos) {
    reportCorrupt(kind, path, "no header");
    return std::nullopt;
  }
  llvm::SmallVector<llvm::StringRef, 6> fields;
  data.take_front(newline).split(fields, ' ', -1, /*KeepEmpty=*/false);
  uint64_t length = 0, checksum = 0;
  int format = 0;
  if (fields.size() != 6 || fields[0] != kMagic ||
      fields[1].getAsInteger(10, format) ||
      fields[4].getAsInteger(10, length) ||
      fields[5].getAsInteger(16, checksum)) {
    reportCorrupt(kind, path, "bad header");
    return std::nullopt;
  }
  if (format != kFormat || fields[2] != getKindName(kind) || fields[3] != key) {
    reportCorrupt(kind, path, "header of another format, kind or key");
    return std::nullopt;
  }
  llvm::StringRef payload = data.substr(newline + 1);
  if (payload.size() != length) {
    reportCorrupt(kind, path,
                  llvm::formatv("{0} bytes of payload, the header says {1}",
                                payload.size(), length)
                      .str());
    return std::nullopt;
  }
  if (fnv1a64(payload) != checksum) {
    reportCorrupt(kind, path, "checksum mismatch");
    return std::nullopt;
  }
  if (verbose)
    diagOS << tool << ": cache: hit " << path << "\n";
  return payload.str();
}

bool KernelCache::store(EntryKind kind, llvm::StringRef key,
                        llvm::StringRef payload) {
  if (!isEnabled())
    return false;
  std::string path = getPath(kind, key);
  llvm::StringRef parent = llvm::sys::path::parent_path(path);
  auto giveUp = [&](const llvm::Twine &why) {
    disabledBecause = why.str();
    diagOS << tool << ": warning: cannot write the cache in " << dir << " ("
           << disabledBecause << "); not caching\n";
    return false;
  };
  if (std::error_code ec = llvm::sys::fs::create_directories(parent))
    return giveUp("creating " + parent + ": " + ec.message());
  // A temporary file in the same directory, renamed over the entry: readers
  // see the old entry or the whole new one.
  llvm::SmallString<128> temp;
  int fd = -1;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          parent + "/" + key + "-%%%%%%.tmp", fd, temp))
    return giveUp("creating a file in " + parent + ": " + ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << kMagic << " " << kFormat << " " << getKindName(kind) << " " << key
       << " " << payload.size() << " "
       << llvm::format_hex_no_prefix(fnv1a64(payload), 16) << "\n"
       << payload;
    os.close();
    if (os.has_error()) {
      std::string message = os.error().message();
      os.clear_error();
      llvm::sys::fs::remove(temp);
      return giveUp("writing " + temp + ": " + message);
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temp, path)) {
    llvm::sys::fs::remove(temp);
    return giveUp("renaming to " + path + ": " + ec.message());
  }
  if (verbose)
    diagOS << tool << ": cache: wrote " << path << "\n";
  return true;
}

void KernelCache::discard(EntryKind kind, llvm::StringRef key,
                          llvm::StringRef reason) {
  reportCorrupt(kind, getPath(kind, key), reason);
}

//===----------------------------------------------------------------------===//
// Cubin payloads
//===----------------------------------------------------------------------===//

std::string tile::cache::packCubin(llvm::StringRef cubin,
                                   llvm::StringRef infoLog) {
  std::string payload(8, '\0');
  llvm::support::endian::write64le(payload.data(), infoLog.size());
  payload += infoLog;
  payload += cubin;
  return payload;
}

bool tile::cache::unpackCubin(llvm::StringRef payload, std::string &cubin,
                              std::string &infoLog) {
  if (payload.size() < 8)
    return false;
  uint64_t logSize = llvm::support::endian::read64le(payload.data());
  if (logSize > payload.size() - 8)
    return false;
  infoLog = payload.substr(8, logSize).str();
  cubin = payload.substr(8 + logSize).str();
  return !cubin.empty();
}
