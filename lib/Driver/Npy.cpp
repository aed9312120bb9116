//===- Npy.cpp - numpy .npy files for kernel buffers ----------------------===//

#include "tile/Driver/Npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace tile;
using launch::DType;

static const char kMagic[] = "\x93NUMPY";

/// numpy's descr of each dtype, as numpy writes it on a little-endian host.
static llvm::StringRef getDescr(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return "<f2";
  case DType::BF16:
    return "bfloat16";
  case DType::F32:
    return "<f4";
  case DType::F64:
    return "<f8";
  case DType::I8:
    return "|i1";
  case DType::I16:
    return "<i2";
  case DType::I32:
    return "<i4";
  case DType::I64:
    return "<i8";
  case DType::U8:
    return "|u1";
  case DType::U16:
    return "<u2";
  case DType::U32:
    return "<u4";
  case DType::U64:
    return "<u8";
  case DType::Bool:
    return "|b1";
  // numpy has no fp8: the names of ml_dtypes' types, as for bfloat16.
  case DType::F8E4NV:
    return "float8_e4m3fn";
  case DType::F8E5:
    return "float8_e5m2";
  }
  return "?";
}

static std::optional<DType> parseDescr(llvm::StringRef descr) {
  for (DType dtype :
       {DType::F16, DType::BF16, DType::F32, DType::F64, DType::I8, DType::I16,
        DType::I32, DType::I64, DType::U8, DType::U16, DType::U32, DType::U64,
        DType::Bool, DType::F8E4NV, DType::F8E5}) {
    llvm::StringRef want = getDescr(dtype);
    if (descr == want)
      return dtype;
    // One-byte types may be written with any byte order mark.
    if (want.starts_with("|") && (descr == ("<" + want.drop_front()).str() ||
                                  descr == ("=" + want.drop_front()).str()))
      return dtype;
  }
  return std::nullopt;
}

/// The value of `key` in the header dict: the text after "'key':" up to the
/// next top-level comma.
static std::optional<llvm::StringRef> findKey(llvm::StringRef header,
                                              llvm::StringRef key) {
  std::string quoted = ("'" + key + "'").str();
  size_t pos = header.find(quoted);
  if (pos == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef rest = header.substr(pos + quoted.size()).ltrim();
  if (!rest.consume_front(":"))
    return std::nullopt;
  rest = rest.ltrim();
  if (rest.starts_with("(")) {
    size_t close = rest.find(')');
    return close == llvm::StringRef::npos
               ? std::nullopt
               : std::optional(rest.take_front(close + 1));
  }
  size_t end = rest.find_first_of(",}");
  return rest.take_front(end).trim();
}

bool tile::readNpy(llvm::StringRef path, HostArray &array, std::string &error) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!file) {
    error = "cannot read '" + path.str() + "': " + file.getError().message();
    return false;
  }
  llvm::StringRef data = (*file)->getBuffer();
  auto bad = [&](const llvm::Twine &why) {
    error = ("'" + path + "' is not a .npy file tile-run reads: " + why).str();
    return false;
  };
  if (data.size() < 10 || !data.starts_with(llvm::StringRef(kMagic, 6)))
    return bad("no .npy magic string");
  unsigned major = uint8_t(data[6]);
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = uint8_t(data[8]) | uint8_t(data[9]) << 8;
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (data.size() < 12)
      return bad("truncated header");
    headerLength = 0;
    for (int b = 3; b >= 0; --b)
      headerLength = headerLength << 8 | uint8_t(data[8 + b]);
    headerStart = 12;
  } else {
    return bad("format version " + llvm::Twine(major));
  }
  if (headerStart + headerLength > data.size())
    return bad("truncated header");
  llvm::StringRef header = data.substr(headerStart, headerLength);
  std::optional<llvm::StringRef> descr = findKey(header, "descr");
  std::optional<llvm::StringRef> fortran = findKey(header, "fortran_order");
  std::optional<llvm::StringRef> shape = findKey(header, "shape");
  if (!descr || !fortran || !shape)
    return bad("header without descr, fortran_order or shape");
  llvm::StringRef descrName = descr->trim("'\"");
  if (*fortran != "False")
    return bad("Fortran order (save a C-contiguous array)");
  if (descrName.starts_with(">"))
    return bad("big-endian data ('" + descrName + "')");
  std::optional<DType> dtype = parseDescr(descrName);
  if (!dtype)
    return bad("dtype '" + descrName +
               "' (supported: float16, bfloat16, float32, float64, "
               "int8-int64, uint8-uint64, bool, float8_e4m3fn, float8_e5m2)");
  array.dtype = *dtype;
  array.shape.clear();
  llvm::SmallVector<llvm::StringRef> dims;
  shape->trim("()").split(dims, ',', -1, /*KeepEmpty=*/false);
  // The byte size, checked as it grows: a shape whose size overflows must
  // not wrap around to the size of the data the file holds.
  uint64_t bytes = launch::getByteWidth(*dtype);
  for (llvm::StringRef dim : dims) {
    int64_t extent;
    if (dim.trim().getAsInteger(10, extent) || extent < 0)
      return bad("shape " + *shape);
    array.shape.push_back(extent);
    if (extent && bytes > data.size() / uint64_t(extent))
      return bad("shape " + *shape + " needs more bytes than the file's " +
                 llvm::Twine(data.size()));
    bytes *= uint64_t(extent);
  }
  llvm::StringRef payload = data.substr(headerStart + headerLength);
  if (payload.size() != bytes)
    return bad("shape " + *shape + " needs " + llvm::Twine(bytes) +
               " bytes of data, the file has " + llvm::Twine(payload.size()));
  array.bytes.assign(payload.begin(), payload.end());
  return true;
}

bool tile::writeNpy(llvm::StringRef path, const HostArray &array,
                    std::string &error) {
  std::string shape = "(";
  for (int64_t extent : array.shape)
    shape += std::to_string(extent) + ", ";
  if (array.shape.size() > 1)
    shape.resize(shape.size() - 2);
  else if (array.shape.size() == 1)
    shape.pop_back(); // keep the tuple's comma: "(5,)"
  shape += ")";
  std::string header = "{'descr': '" + getDescr(array.dtype).str() +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad with spaces and a newline so the data starts at a multiple of 64.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  // A temporary file beside the target, renamed over it once complete (as
  // the kernel cache writes): a failed write leaves no half file.
  int fd = -1;
  llvm::SmallString<128> temporary;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          path + ".tmp-%%%%%%%%", fd, temporary)) {
    error = "cannot write '" + path.str() + "': " + ec.message();
    return false;
  }
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os.write(kMagic, 6);
  os << char(1) << char(0) << char(header.size() & 0xff)
     << char(header.size() >> 8) << header;
  os.write(reinterpret_cast<const char *>(array.bytes.data()),
           array.bytes.size());
  os.close();
  std::error_code ec = os.error();
  os.clear_error();
  if (!ec)
    ec = llvm::sys::fs::rename(temporary, path);
  if (ec) {
    llvm::sys::fs::remove(temporary);
    error = "cannot write '" + path.str() + "': " + ec.message();
    return false;
  }
  return true;
}
