//===- Sweep.cpp - tile-run --sweep: tables, CSV files and plots ----------===//

#include "tile/Driver/Sweep.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace tile;

const char *const tile::kSweepColumns[8] = {
    "ms",      "p20_ms", "p80_ms", "GB/s", "ceiling_fraction",
    "TFLOP/s", "check",  "where"};

namespace {
constexpr size_t kMaxSweepValues = 10000;

/// Splits at commas outside parentheses and brackets.
std::vector<std::string> splitTopLevel(llvm::StringRef text) {
  std::vector<std::string> items;
  int depth = 0;
  std::string current;
  for (char c : text) {
    if (c == '(' || c == '[')
      ++depth;
    else if (c == ')' || c == ']')
      --depth;
    if (c == ',' && depth == 0) {
      items.push_back(llvm::StringRef(current).trim().str());
      current.clear();
      continue;
    }
    current += c;
  }
  items.push_back(llvm::StringRef(current).trim().str());
  return items;
}

/// A range item `A..B:S` or `A..B*F`, appended to `values`; false with
/// `error` set where it is malformed, and false with no error where `item`
/// is no range.
bool expandRange(llvm::StringRef item, std::vector<std::string> &values,
                 std::string &error) {
  size_t dots = item.find("..");
  if (dots == llvm::StringRef::npos)
    return false;
  llvm::StringRef from = item.take_front(dots).trim();
  llvm::StringRef rest = item.substr(dots + 2);
  size_t op = rest.find_first_of(":*");
  int64_t a, b, step;
  if (op == llvm::StringRef::npos || from.getAsInteger(10, a) ||
      rest.take_front(op).trim().getAsInteger(10, b) ||
      rest.substr(op + 1).trim().getAsInteger(10, step)) {
    error = "range '" + item.str() +
            "' must be A..B:STEP or A..B*FACTOR with integers";
    return false;
  }
  bool geometric = rest[op] == '*';
  if (geometric ? (step < 2 || a < 1) : step < 1) {
    error = "range '" + item.str() + "': " +
            (geometric ? "the factor must be at least 2 and A at least 1"
                       : "the step must be positive");
    return false;
  }
  if (a > b) {
    error = "range '" + item.str() + "' is empty";
    return false;
  }
  for (int64_t v = a; v <= b;) {
    if (values.size() >= kMaxSweepValues) {
      error = "more than " + std::to_string(kMaxSweepValues) + " values";
      return false;
    }
    values.push_back(std::to_string(v));
    // Stop before the next value overflows.
    if (geometric ? v > b / step : v > b - step)
      break;
    v = geometric ? v * step : v + step;
  }
  return true;
}

std::string formatCell(std::optional<double> value, const char *format) {
  return value ? llvm::formatv(format, *value).str() : std::string();
}

/// x as the CSV and table write it: integers without a decimal point.
std::string formatX(double x) {
  if (x == std::floor(x) && std::fabs(x) < 1e15)
    return std::to_string(int64_t(x));
  return llvm::formatv("{0}", x).str();
}

/// Quotes `text` for gnuplot's single-quoted strings.
std::string gnuplotQuote(llvm::StringRef text) {
  std::string quoted = "'";
  for (char c : text)
    quoted += c == '\'' ? std::string("''") : std::string(1, c);
  return quoted + "'";
}
} // namespace

bool tile::parseSweep(llvm::StringRef option, std::string &name,
                      std::vector<std::string> &values, std::string &error) {
  size_t eq = option.find('=');
  if (eq == llvm::StringRef::npos || eq == 0 ||
      option.substr(eq + 1).trim().empty()) {
    error = "--sweep expects NAME=V1,V2,... or NAME=A..B:STEP or "
            "NAME=A..B*FACTOR, got '" +
            option.str() + "'";
    return false;
  }
  name = option.take_front(eq).trim().str();
  for (const std::string &item : splitTopLevel(option.substr(eq + 1))) {
    if (item.empty()) {
      error = "--sweep " + name + ": empty value";
      return false;
    }
    if (expandRange(item, values, error))
      continue;
    if (!error.empty()) {
      error = "--sweep " + name + ": " + error;
      return false;
    }
    values.push_back(item);
  }
  if (values.size() > kMaxSweepValues) {
    error = "--sweep " + name + ": more than " +
            std::to_string(kMaxSweepValues) + " values";
    return false;
  }
  return true;
}

void tile::printSweepTable(llvm::StringRef variable,
                           const std::vector<SweepRow> &rows,
                           llvm::raw_ostream &os) {
  os << llvm::formatv("{0,12} {1,10} {2,10} {3,10} {4,10} {5,9} {6,9} {7,5} "
                      "{8}\n",
                      variable, "ms", "p20", "p80", "GB/s", "ceiling",
                      "TFLOP/s", "check", "where");
  auto cell = [](std::optional<double> v, const char *format) {
    std::string text = formatCell(v, format);
    return text.empty() ? std::string("-") : text;
  };
  for (const SweepRow &row : rows)
    os << llvm::formatv(
        "{0,12} {1,10} {2,10} {3,10} {4,10} {5,9} {6,9} {7,5} {8}\n",
        formatX(row.x), cell(row.ms, "{0:f4}"), cell(row.p20, "{0:f4}"),
        cell(row.p80, "{0:f4}"), cell(row.gbPerS, "{0:f1}"),
        row.ceilingFraction
            ? llvm::formatv("{0:f1}%", 100 * *row.ceilingFraction).str()
            : std::string("-"),
        cell(row.tflopPerS, "{0:f2}"), row.check, row.where);
}

bool tile::writeSweepCSV(llvm::StringRef path, llvm::StringRef variable,
                         const std::vector<SweepRow> &rows,
                         std::string &error) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    error = "cannot write '" + path.str() + "': " + ec.message();
    return false;
  }
  os << variable;
  for (const char *column : kSweepColumns)
    os << "," << column;
  os << "\n";
  for (const SweepRow &row : rows)
    os << formatX(row.x) << "," << formatCell(row.ms, "{0:f6}") << ","
       << formatCell(row.p20, "{0:f6}") << "," << formatCell(row.p80, "{0:f6}")
       << "," << formatCell(row.gbPerS, "{0:f3}") << ","
       << formatCell(row.ceilingFraction, "{0:f4}") << ","
       << formatCell(row.tflopPerS, "{0:f4}") << "," << row.check << ","
       << row.where << "\n";
  os.close();
  if (os.has_error()) {
    error = "cannot write '" + path.str() + "': " + os.error().message();
    os.clear_error();
    return false;
  }
  return true;
}

bool tile::readCSV(llvm::StringRef path, CSVTable &table, std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    error = "cannot read '" + path.str() + "': " + buffer.getError().message();
    return false;
  }
  llvm::SmallVector<llvm::StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n');
  auto cells = [](llvm::StringRef line) {
    llvm::SmallVector<llvm::StringRef> parts;
    line.split(parts, ',');
    std::vector<std::string> out;
    for (llvm::StringRef part : parts) {
      part = part.trim();
      if (part.size() >= 2 && part.front() == '"' && part.back() == '"')
        part = part.drop_front().drop_back();
      out.push_back(part.str());
    }
    return out;
  };
  for (llvm::StringRef line : lines) {
    if (line.trim().empty())
      continue;
    if (table.header.empty())
      table.header = cells(line);
    else
      table.rows.push_back(cells(line));
  }
  if (table.header.size() < 2) {
    error = "'" + path.str() +
            "' is no CSV file with a header line of two or more columns";
    return false;
  }
  return true;
}

void tile::splitPlotRef(llvm::StringRef spec, std::string &path,
                        std::vector<std::string> &columns) {
  columns.clear();
  size_t colon = spec.rfind(':');
  if (llvm::sys::fs::exists(spec) || colon == llvm::StringRef::npos) {
    path = spec.str();
    return;
  }
  path = spec.take_front(colon).str();
  llvm::SmallVector<llvm::StringRef> names;
  spec.substr(colon + 1).split(names, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef name : names)
    columns.push_back(name.trim().str());
}

bool tile::getSeries(llvm::StringRef path, const CSVTable &table,
                     llvm::ArrayRef<std::string> columns,
                     std::vector<Series> &out, std::string &error) {
  auto number = [](const std::string &cell) -> std::optional<double> {
    double value;
    if (cell.empty() || llvm::StringRef(cell).getAsDouble(value) ||
        !std::isfinite(value))
      return std::nullopt;
    return value;
  };
  std::vector<size_t> picked;
  for (const std::string &column : columns) {
    auto it = llvm::find(table.header, column);
    if (it == table.header.end()) {
      error = "'" + path.str() + "' has no column '" + column +
              "'; it has: " + llvm::join(table.header, ", ");
      return false;
    }
    picked.push_back(it - table.header.begin());
  }
  if (columns.empty())
    for (size_t c = 1; c < table.header.size(); ++c)
      if (llvm::any_of(table.rows, [&](const std::vector<std::string> &row) {
            return c < row.size() && number(row[c]);
          }))
        picked.push_back(c);
  for (size_t c : picked) {
    Series series;
    series.title = table.header[c];
    for (const std::vector<std::string> &row : table.rows) {
      std::optional<double> x = row.empty() ? std::nullopt : number(row[0]);
      std::optional<double> y = c < row.size() ? number(row[c]) : std::nullopt;
      if (x && y)
        series.points.push_back({*x, *y});
    }
    if (series.points.empty()) {
      error = "column '" + series.title + "' of '" + path.str() +
              "' holds no numbers";
      return false;
    }
    out.push_back(std::move(series));
  }
  if (picked.empty()) {
    error = "'" + path.str() + "' has no column of numbers to plot";
    return false;
  }
  return true;
}

bool tile::plotWithGnuplot(const std::vector<Series> &series,
                           const PlotOptions &options, std::string &error) {
  llvm::ErrorOr<std::string> gnuplot = llvm::sys::findProgramByName("gnuplot");
  if (!gnuplot) {
    error = "plotting needs gnuplot, which is not on the PATH (Debian: "
            "apt-get install gnuplot-nox; scripts/install-deps.sh installs "
            "it)";
    return false;
  }
  llvm::SmallString<128> scriptPath, logPath;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "tile-run-plot", "gp", scriptPath)) {
    error = "cannot create a temporary file: " + ec.message();
    return false;
  }
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tile-run-plot", "log", logPath)) {
    llvm::sys::fs::remove(scriptPath);
    error = "cannot create a temporary file: " + ec.message();
    return false;
  }
  // Removes the temporary files however this returns.
  struct Cleanup {
    llvm::SmallString<128> &a, &b;
    ~Cleanup() {
      llvm::sys::fs::remove(a);
      llvm::sys::fs::remove(b);
    }
  } cleanup{scriptPath, logPath};
  {
    std::error_code ec;
    llvm::raw_fd_ostream script(scriptPath, ec, llvm::sys::fs::OF_Text);
    if (ec) {
      error = "cannot write '" + scriptPath.str().str() + "': " + ec.message();
      return false;
    }
    // pngcairo draws better; plain png (libgd) where cairo is missing.
    script << "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
              "  set terminal pngcairo size 1000,600 noenhanced\n"
              "} else {\n"
              "  set terminal png size 1000,600 noenhanced\n"
              "}\n";
    script << "set output " << gnuplotQuote(options.output) << "\n";
    script << "set title " << gnuplotQuote(options.title) << "\n";
    script << "set xlabel " << gnuplotQuote(options.xLabel) << "\n";
    script << "set ylabel " << gnuplotQuote(options.yLabel) << "\n";
    script << "set grid\nset key outside right top\nset yrange [0:*]\n";
    for (auto [i, s] : llvm::enumerate(series)) {
      // Sorted by x, so that the lines do not double back.
      std::vector<std::pair<double, double>> points = s.points;
      llvm::stable_sort(points, [](const auto &a, const auto &b) {
        return a.first < b.first;
      });
      script << "$S" << i << " << EOD\n";
      for (const auto &[x, y] : points)
        script << llvm::formatv("{0} {1}\n", formatX(x), y);
      script << "EOD\n";
    }
    script << "plot ";
    if (options.level)
      script << options.level.value() << " with lines dashtype 2 linecolor "
             << "rgb 'gray40' title " << gnuplotQuote(options.levelTitle)
             << ", \\\n     ";
    for (auto [i, s] : llvm::enumerate(series))
      script << (i ? ", \\\n     " : "") << "$S" << i
             << " using 1:2 with linespoints linetype " << i + 1
             << " linewidth 2 pointtype 7 "
                "pointsize 0.6 title "
             << gnuplotQuote(s.title);
    script << "\n";
  }
  llvm::StringRef program = *gnuplot;
  llvm::StringRef args[] = {program, scriptPath};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, logPath, logPath};
  std::string execError;
  int status = llvm::sys::ExecuteAndWait(program, args, std::nullopt, redirects,
                                         0, 0, &execError);
  auto log = llvm::MemoryBuffer::getFile(logPath, /*IsText=*/true);
  std::string logText =
      log ? llvm::StringRef((*log)->getBuffer()).trim().str() : std::string();
  if (status != 0) {
    error = "gnuplot failed" +
            (execError.empty() ? std::string() : ": " + execError) +
            (logText.empty() ? std::string() : "\n" + logText);
    return false;
  }
  auto png = llvm::MemoryBuffer::getFile(options.output, /*IsText=*/false);
  if (!png || !(*png)->getBuffer().starts_with("\x89PNG\r\n\x1a\n")) {
    error = "gnuplot wrote no PNG to '" + options.output + "'" +
            (logText.empty() ? std::string() : ":\n" + logText);
    return false;
  }
  return true;
}
