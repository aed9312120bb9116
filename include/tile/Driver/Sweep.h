//===- Sweep.h - tile-run --sweep: tables, CSV files and plots ------------===//
//
// A sweep runs the kernel once per value of one launch variable, as
// triton.testing.perf_report does, and collects a row per value: the time,
// GB/s, the fraction of the measured copy ceiling and TFLOP/s. The rows go
// to a table on stdout, a CSV file and a PNG plot drawn by gnuplot, where
// other CSV files (Triton's perf_report output, an earlier sweep) can add
// series to compare with.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DRIVER_SWEEP_H
#define TILE_DRIVER_SWEEP_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tile {

/// Splits `--sweep NAME=ITEMS`. ITEMS is a comma-separated list (commas
/// inside parentheses do not split) of launch expressions such as `781` or
/// `2**12`, and of integer ranges: `A..B:S` is A, A+S, ... up to B, and
/// `A..B*F` is A, A*F, A*F*F, ... up to B. Each value is passed on as
/// `--set NAME=value`.
bool parseSweep(llvm::StringRef option, std::string &name,
                std::vector<std::string> &values, std::string &error);

/// One value of the swept variable and what the run at it measured.
struct SweepRow {
  double x = 0;
  std::optional<double> ms, p20, p80, gbPerS, ceilingFraction, tflopPerS;
  /// PASS, FAIL, or "-" where the launch has no check.
  std::string check = "-";
  /// "gpu", or "interpreter" (its wall time; no p20/p80).
  std::string where = "gpu";
};

/// The columns of the CSV file, after the swept variable's name.
extern const char *const kSweepColumns[8];

void printSweepTable(llvm::StringRef variable,
                     const std::vector<SweepRow> &rows, llvm::raw_ostream &os);
bool writeSweepCSV(llvm::StringRef path, llvm::StringRef variable,
                   const std::vector<SweepRow> &rows, std::string &error);

/// A line on the plot.
struct Series {
  std::string title;
  std::vector<std::pair<double, double>> points;
};

/// A CSV file with a header line; cells are trimmed and unquoted.
struct CSVTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};
bool readCSV(llvm::StringRef path, CSVTable &table, std::string &error);

/// Series from a CSV file's columns against its first column: the columns
/// named in `columns`, or, where it is empty, every column that holds
/// numbers. Rows whose cells are empty or not numbers are skipped.
bool getSeries(llvm::StringRef path, const CSVTable &table,
               llvm::ArrayRef<std::string> columns, std::vector<Series> &out,
               std::string &error);

/// `FILE` or `FILE:COLUMN,COLUMN...` (--plot-ref): the file and the columns.
void splitPlotRef(llvm::StringRef spec, std::string &path,
                  std::vector<std::string> &columns);

struct PlotOptions {
  std::string output; // .png
  std::string title;
  std::string xLabel;
  std::string yLabel;
  /// A dashed horizontal line, such as the copy ceiling in GB/s.
  std::optional<double> level;
  std::string levelTitle;
};

/// Draws `series` as lines with points into a PNG with gnuplot (found on
/// the PATH) and checks that a PNG came out.
bool plotWithGnuplot(const std::vector<Series> &series,
                     const PlotOptions &options, std::string &error);

} // namespace tile

#endif // TILE_DRIVER_SWEEP_H
