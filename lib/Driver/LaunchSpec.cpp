//===- LaunchSpec.cpp - find and parse a launch description ---------------===//
//
// Locates the `# tile-run:` comment block, parses its lines with the front
// end's statement parser (the `#` at each line start is skipped), applies
// the command line's overrides and has the Evaluator (LaunchEvaluator.cpp)
// run the assignments; then reads the grid, num_warps and bytes variables.
//
//===----------------------------------------------------------------------===//

#include "LaunchEvaluator.h"
#include "tile/Frontend/Parser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

using namespace tile;
using namespace tile::launch;
using namespace tile::frontend;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;
using namespace tile::launch::detail;

/// Reads the grid, num_warps and bytes variables into their fields.
static bool readLaunchVariables(LaunchSpec &spec, DiagEmitter &diag) {
  auto it = spec.variables.find("grid");
  spec.hasGrid = it != spec.variables.end();
  if (it != spec.variables.end()) {
    const Value &grid = it->second;
    std::vector<Value> dims = grid.kind == Value::Kind::Tuple
                                  ? grid.elements
                                  : std::vector<Value>{grid};
    if (dims.empty() || dims.size() > 3) {
      diag.error(spec.getLocation("grid"), "grid must have 1 to 3 dimensions");
      return false;
    }
    spec.gridDeferred = grid.isDeferred();
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i].kind == Value::Kind::Deferred)
        continue; // set by the evaluation that knows DeviceValues
      if (dims[i].kind != Value::Kind::Int || dims[i].intValue <= 0 ||
          dims[i].intValue > 0x7fffffff) {
        diag.error(spec.getLocation("grid"),
                   "grid dimension " + std::to_string(i) +
                       " must be a positive integer, got " +
                       dims[i].describe());
        return false;
      }
      spec.grid[i] = dims[i].intValue;
    }
  }
  it = spec.variables.find("num_warps");
  if (it != spec.variables.end()) {
    const Value &warps = it->second;
    if (warps.isDeferred()) {
      diag.error(spec.getLocation("num_warps"),
                 "num_warps cannot depend on num_sms() or "
                 "occupancy(): the occupancy depends on num_warps");
      return false;
    }
    if (warps.kind != Value::Kind::Int || warps.intValue <= 0 ||
        warps.intValue > 32 || !llvm::isPowerOf2_64(warps.intValue)) {
      diag.error(spec.getLocation("num_warps"),
                 "num_warps must be a power of two from 1 to 32, "
                 "got " +
                     warps.describe());
      return false;
    }
    spec.numWarps = warps.intValue;
  }
  it = spec.variables.find("num_stages");
  if (it != spec.variables.end()) {
    const Value &stages = it->second;
    if (stages.isDeferred()) {
      diag.error(spec.getLocation("num_stages"),
                 "num_stages cannot depend on num_sms() or "
                 "occupancy(): it shapes the compiled kernel");
      return false;
    }
    if (stages.kind != Value::Kind::Int || stages.intValue < 1 ||
        stages.intValue > 16) {
      diag.error(spec.getLocation("num_stages"),
                 "num_stages must be an integer from 1 to 16, got " +
                     stages.describe());
      return false;
    }
    spec.numStages = stages.intValue;
  }
  for (auto [name, field] :
       {std::pair{"warp_specialize_all", &spec.warpSpecializeAll},
        std::pair{"ping_pong", &spec.pingPong}}) {
    it = spec.variables.find(name);
    if (it == spec.variables.end())
      continue;
    if (it->second.kind != Value::Kind::Bool) {
      diag.error(spec.getLocation(name), llvm::Twine(name) +
                                             " must be True or False, got " +
                                             it->second.describe());
      return false;
    }
    *field = it->second.intValue != 0;
  }
  for (auto [name, field] :
       {std::pair{"bytes", &spec.bytes}, std::pair{"flops", &spec.flops}}) {
    it = spec.variables.find(name);
    if (it == spec.variables.end())
      continue;
    if (it->second.isDeferred()) {
      diag.error(spec.getLocation(name),
                 llvm::Twine(name) + ": " + kDeferredUse);
      return false;
    }
    if (!it->second.isNumber()) {
      diag.error(spec.getLocation(name),
                 llvm::Twine(name) + " must be a number");
      return false;
    }
    *field = it->second.asDouble();
  }
  return true;
}

/// Where the line starting with `marker` begins, or npos.
static size_t findMarker(llvm::StringRef text, llvm::StringRef marker) {
  // A UTF-8 byte order mark before the first line is no character of it.
  size_t start = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  size_t markerPos = text.find(marker, start);
  while (markerPos != llvm::StringRef::npos && markerPos != start &&
         text[markerPos - 1] != '\n' && text[markerPos - 1] != '\r')
    markerPos = text.find(marker, markerPos + 1);
  return markerPos;
}

std::string tile::launch::findKernelName(llvm::StringRef text,
                                         llvm::StringRef commentPrefix) {
  std::string marker = (commentPrefix + " tile-run:").str();
  size_t markerPos = findMarker(text, marker);
  if (markerPos == llvm::StringRef::npos)
    return "";
  size_t lineEnd = std::min(text.find_first_of("\r\n", markerPos), text.size());
  return text.slice(markerPos + marker.size(), lineEnd).trim().str();
}

/// Whether the Python expression `text` uses one of `names` as an
/// identifier (outside string literals).
static bool mentionsAny(llvm::StringRef text, const llvm::StringSet<> &names) {
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '"' || c == '\'') {
      size_t end = text.find(c, i + 1);
      i = end == llvm::StringRef::npos ? text.size() : end + 1;
      continue;
    }
    if (llvm::isAlpha(c) || c == '_') {
      size_t end = i;
      while (end < text.size() &&
             (llvm::isAlnum(text[end]) || text[end] == '_'))
        ++end;
      if (names.contains(text.slice(i, end)))
        return true;
      i = end;
      continue;
    }
    // Digits of a number (1e5, 0x1f) are not the start of a name.
    if (llvm::isDigit(c)) {
      while (i < text.size() && (llvm::isAlnum(text[i]) || text[i] == '.'))
        ++i;
      continue;
    }
    ++i;
  }
  return false;
}

std::optional<LaunchSpec> tile::launch::parseLaunchSpec(
    llvm::SourceMgr &sourceMgr, unsigned bufferId, DiagEmitter &diag,
    llvm::ArrayRef<Override> overrides, llvm::StringRef commentPrefix,
    const DeviceValues *device) {
  llvm::StringRef text = sourceMgr.getMemoryBuffer(bufferId)->getBuffer();
  std::string marker = (commentPrefix + " tile-run:").str();
  // Lines end as the lexer has them: "\n", "\r\n" or "\r".
  auto lineEndFrom = [&](size_t pos) {
    return std::min(text.find_first_of("\r\n", pos), text.size());
  };
  auto nextLineAfter = [&](size_t lineEnd) {
    if (text.substr(lineEnd).starts_with("\r\n"))
      return lineEnd + 2;
    return std::min(lineEnd + 1, text.size());
  };
  size_t markerPos = findMarker(text, marker);
  if (markerPos == llvm::StringRef::npos) {
    diag.error(llvm::SMLoc::getFromPointer(text.data()),
               "no launch description: add a comment block starting with '" +
                   marker + " <kernel>' that says how to launch the kernel");
    return std::nullopt;
  }
  LaunchSpec spec;
  size_t lineEnd = lineEndFrom(markerPos);
  spec.kernel = text.slice(markerPos + marker.size(), lineEnd).trim().str();
  spec.loc = diag.getLocation(
      bufferId,
      sourceMgr.FindLineNumber(
          llvm::SMLoc::getFromPointer(text.data() + markerPos), bufferId),
      1);
  // The block: following lines that start with the comment prefix.
  size_t blockStart = nextLineAfter(lineEnd);
  size_t blockEnd = blockStart;
  while (blockEnd < text.size() &&
         text.substr(blockEnd).starts_with(commentPrefix))
    blockEnd = nextLineAfter(lineEndFrom(blockEnd));
  // Skip the first line's prefix: the parser skips it on the others.
  FragmentOptions fragment;
  fragment.range = text.slice(
      std::min(blockStart + commentPrefix.size(), blockEnd), blockEnd);
  fragment.linePrefix = commentPrefix;

  std::optional<ast::StmtList> statements;
  llvm::StringSet<> described;
  if (!fragment.range.empty()) {
    statements = parseStatements(sourceMgr, bufferId, diag, fragment);
    if (!statements)
      return std::nullopt;
    for (const auto &statement : *statements)
      if (const auto *assign = dyn_cast<ast::AssignStmt>(statement.get()))
        if (assign->getTargets().size() == 1)
          if (const auto *target =
                  dyn_cast<ast::NameExpr>(assign->getTargets()[0].get()))
            described.insert(target->getName());
  }

  // Command-line values, each parsed in its own buffer so that errors quote
  // them. One that names none of the description's variables is evaluated
  // first, so that the description sees it (--set n=2**20); one that does
  // (--set 'x=randn(fp32, n)') takes the place of the description's
  // assignment to its name, or comes after the description if it has none.
  llvm::StringMap<Value> preset;
  llvm::StringMap<const ast::Expr *> deferred;
  std::vector<std::pair<std::string, std::unique_ptr<ast::Expr>>> parsed;
  Evaluator evaluator(spec, diag, device);
  // The last --set of a name wins.
  llvm::StringMap<size_t> lastOverride;
  for (auto [index, override] : llvm::enumerate(overrides))
    lastOverride[override.name] = index;
  // A buffer an override makes is named after it (--save-dir's files).
  // An element-wise expression becomes a derived buffer.
  auto assign = [&](llvm::StringRef name, const ast::Expr &expr,
                    const Value &assigned) {
    std::optional<Value> value = evaluator.materialize(expr, assigned);
    if (!value)
      return false;
    if (value->kind == Value::Kind::Buffer &&
        spec.buffers[value->buffer].name.empty())
      spec.buffers[value->buffer].name = name.str();
    spec.variables[name] = *value;
    spec.locations[name] = expr.getLoc();
    return true;
  };
  for (auto [index, override] : llvm::enumerate(overrides)) {
    if (lastOverride[override.name] != index)
      continue;
    unsigned id = sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(override.expression,
                                             "<--set " + override.name + ">"),
        llvm::SMLoc());
    std::unique_ptr<ast::Expr> expr = parseExpression(sourceMgr, id, diag);
    if (!expr)
      return std::nullopt;
    if (mentionsAny(override.expression, described)) {
      deferred[override.name] = expr.get();
      parsed.emplace_back(override.name, std::move(expr));
      continue;
    }
    std::optional<Value> value = evaluator.eval(*expr);
    if (!value || !assign(override.name, *expr, *value))
      return std::nullopt;
    preset[override.name] = spec.variables[override.name];
  }
  if (statements && !evaluator.run(*statements, preset, deferred))
    return std::nullopt;
  for (const auto &[name, expr] : parsed) {
    if (described.contains(name))
      continue;
    std::optional<Value> value = evaluator.eval(*expr);
    if (!value || !assign(name, *expr, *value))
      return std::nullopt;
  }
  if (!readLaunchVariables(spec, diag))
    return std::nullopt;
  return spec;
}
