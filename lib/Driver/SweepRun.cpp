//===- SweepRun.cpp - run a sweep and plot it -----------------------------===//
//
// --sweep runs the kernel once per value of a launch variable and collects
// a row per run; Sweep.cpp prints the table and writes the CSV file, and
// the plot (this sweep's series, those of --plot-ref files and the copy
// ceiling) is drawn here, also for --plot-only.
//
//===----------------------------------------------------------------------===//

#include "RunInternal.h"
#include "tile/Driver/Sweep.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;

namespace tile {
namespace {
/// The sweep's column that --plot draws.
std::string getPlotColumn(const RunOptions &options, bool hasBytes,
                          bool hasFlops) {
  if (!options.plotY.empty())
    return options.plotY;
  return hasBytes ? "GB/s" : hasFlops ? "TFLOP/s" : "ms";
}

/// Draws the series of `ours` (a sweep's CSV) and of every --plot-ref.
int drawPlot(RunContext &context, llvm::StringRef oursPath,
             const CSVTable &ours, llvm::StringRef column,
             llvm::StringRef defaultTitle) {
  const RunOptions &runOptions = context.options;
  std::string error;
  std::vector<Series> series;
  if (!getSeries(oursPath, ours, {column.str()}, series, error))
    return context.fail(error);
  series.back().title = runOptions.plotSeries;
  for (const std::string &ref : runOptions.plotRefs) {
    std::string path;
    std::vector<std::string> columns;
    splitPlotRef(ref, path, columns);
    CSVTable table;
    if (!readCSV(path, table, error) ||
        !getSeries(path, table, columns, series, error))
      return context.fail("--plot-ref: " + error);
  }
  PlotOptions options;
  options.output = runOptions.plotFile;
  options.title =
      runOptions.plotTitle.empty() ? defaultTitle.str() : runOptions.plotTitle;
  options.xLabel = ours.header[0];
  options.yLabel = column.str();
  // On a GB/s plot, the copy ceiling the sweep measured: GB/s / fraction.
  auto gb = llvm::find(ours.header, "GB/s");
  auto fraction = llvm::find(ours.header, "ceiling_fraction");
  if (column == "GB/s" && gb != ours.header.end() &&
      fraction != ours.header.end()) {
    size_t g = gb - ours.header.begin(), f = fraction - ours.header.begin();
    for (const std::vector<std::string> &row : ours.rows) {
      double gbPerS, share;
      if (std::max(g, f) < row.size() &&
          !llvm::StringRef(row[g]).getAsDouble(gbPerS) &&
          !llvm::StringRef(row[f]).getAsDouble(share) && share > 0) {
        options.level = gbPerS / share;
        options.levelTitle = "copy ceiling";
        break;
      }
    }
  }
  if (!plotWithGnuplot(series, options, error))
    return context.fail("--plot: " + error);
  llvm::outs() << "plot: " << runOptions.plotFile << "\n";
  return 0;
}
} // namespace

int plotExisting(RunContext &context, llvm::StringRef csvPath) {
  if (context.options.plotFile.empty())
    return context.fail("--plot-only needs --plot FILE.png");
  CSVTable table;
  std::string error;
  if (!readCSV(csvPath, table, error))
    return context.fail(error);
  auto has = [&](llvm::StringRef column) {
    auto it = llvm::find(table.header, column);
    if (it == table.header.end())
      return false;
    size_t c = it - table.header.begin();
    return llvm::any_of(table.rows, [&](const std::vector<std::string> &row) {
      return c < row.size() && !row[c].empty();
    });
  };
  return drawPlot(context, csvPath, table,
                  getPlotColumn(context.options, has("GB/s"), has("TFLOP/s")),
                  llvm::sys::path::stem(csvPath));
}

int runSweep(RunContext &context, std::vector<launch::Override> overrides) {
  const RunOptions &options = context.options;
  std::string name, error;
  std::vector<std::string> values;
  if (!parseSweep(options.sweep, name, values, error))
    return context.fail(error);
  for (const launch::Override &o : overrides)
    if (o.name == name)
      return context.fail("--sweep " + name + " and --set " + name +
                          " both set it; drop one");
  if (options.emit != Emit::None || options.info != InfoFormat::None ||
      options.compare || !options.npySaves.empty() || !options.saveDir.empty())
    return context.fail(
        "--sweep runs and times the kernel: it does not combine with "
        "--emit, --info, --compare, --save or --save-dir");

  std::vector<SweepRow> rows;
  bool anyFailed = false, hasBytes = false, hasFlops = false;
  overrides.push_back({name, ""});
  for (const std::string &value : values) {
    overrides.back().expression = value;
    llvm::outs() << "== " << name << " = " << value << " ==\n";
    RunResult result;
    int status = runTuned(context, overrides, result);
    if (status == 1)
      return 1;
    const launch::Value &x = result.variables.lookup(name);
    if (!x.isNumber())
      return context.fail("--sweep " + name + ": the launch variable is " +
                          x.describe() + ", not a number");
    SweepRow row;
    row.x = x.asDouble();
    row.where = result.onGPU ? "gpu" : "interpreter";
    row.ms = result.ms;
    if (result.onGPU) {
      row.p20 = result.p20;
      row.p80 = result.p80;
    }
    if (result.ms && result.bytes) {
      row.gbPerS = *result.bytes / *result.ms * 1e-6;
      if (result.ceilingGBs)
        row.ceilingFraction = *row.gbPerS / *result.ceilingGBs;
    }
    if (result.ms && result.flops)
      row.tflopPerS = *result.flops / *result.ms * 1e-9;
    if (result.hasChecks)
      row.check = status == 2 ? "FAIL" : "PASS";
    anyFailed |= status == 2;
    hasBytes |= result.bytes.has_value();
    hasFlops |= result.flops.has_value();
    rows.push_back(row);
  }
  llvm::outs() << "\n";
  printSweepTable(name, rows, llvm::outs());

  std::string csvPath = options.csvFile;
  llvm::SmallString<128> tempCSV;
  if (csvPath.empty() && !options.plotFile.empty()) {
    // The plot reads the table back as any other CSV file.
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "tile-run-sweep", "csv", tempCSV))
      return context.fail("cannot create a temporary file: " + ec.message());
    csvPath = tempCSV.str().str();
  }
  int status = anyFailed ? 2 : 0;
  if (!csvPath.empty()) {
    if (!writeSweepCSV(csvPath, name, rows, error))
      return context.fail(error);
    if (!options.csvFile.empty())
      llvm::outs() << "csv: " << options.csvFile << "\n";
  }
  if (!options.plotFile.empty()) {
    CSVTable table;
    if (!readCSV(csvPath, table, error))
      status = context.fail(error);
    else if (int plotStatus =
                 drawPlot(context, csvPath, table,
                          getPlotColumn(options, hasBytes, hasFlops),
                          llvm::sys::path::stem(options.inputFile).str() +
                              ", " + name + " sweep"))
      status = plotStatus;
  }
  if (!tempCSV.empty())
    llvm::sys::fs::remove(tempCSV);
  return status;
}
} // namespace tile
