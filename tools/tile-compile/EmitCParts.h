//===- EmitCParts.h - pieces of the launcher's C source ------*- C++ -*-===//
//
// What EmitC.cpp (the launcher and the driver's loading) and
// EmitCDescriptors.cpp (tensor descriptors and the tensor maps the launch
// encodes) share.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TILECOMPILE_EMITCPARTS_H
#define TILE_TOOLS_TILECOMPILE_EMITCPARTS_H

#include "EmitC.h"

#include <string>
#include <vector>

namespace tile::aot::detail {

/// One argument of the kernel as a variant's launch passes it.
struct KernelArgument {
  /// What the launch's argument array holds: the C address of its value.
  std::string address;
  /// Its value as a C integer expression; empty where it is no integer.
  std::string integer;
  /// Its value as a device address; empty where it is no pointer.
  std::string pointer;
  /// Whether `integer` is a signed 32-bit C value.
  bool is32 = false;
};

/// The kernel arguments of variant `v`, in order, from the launcher's
/// parameters (a descriptor gives its base, extents, strides and map; a
/// folded ":1" integer none), before any tensor map the launch encodes.
std::vector<KernelArgument> getKernelArguments(const Launcher &launcher,
                                               const Variant &v);

bool hasDescriptors(const Launcher &launcher);
bool hasMadeMaps(const Launcher &launcher);

/// The header's declarations for descriptor parameters and made maps.
std::string getDescriptorDeclarations(const Launcher &launcher);
/// The source's functions that encode tensor maps.
std::string getDescriptorDefinitions(const Launcher &launcher);

/// The C statements that encode variant `v`'s made maps (into
/// made_maps[0], ..., thread-local, re-encoded only where their inputs
/// change) from `args`, to which it appends the maps'
/// arguments; false with `error` set where a recipe names an argument the
/// launcher cannot pass as it needs.
bool getMadeMapEncoding(const Variant &v, std::vector<KernelArgument> &args,
                        std::string &statements, std::string &error);

} // namespace tile::aot::detail

#endif // TILE_TOOLS_TILECOMPILE_EMITCPARTS_H
