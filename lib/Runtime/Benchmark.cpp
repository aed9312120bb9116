//===- Benchmark.cpp - event timing and the do_bench-style loop ----------===//
//
// Driver::elapsedMs, rt::benchmarkMedian (triton.testing.do_bench's loop:
// an estimate, warm-up runs, then timed runs each between a pair of events,
// the L2 flushed before each) and the device-to-device copy bandwidth.
//
//===----------------------------------------------------------------------===//

#include "DriverApi.h"

#include <algorithm>
#include <cmath>

using namespace tile;
using namespace tile::rt;
using namespace tile::rt::driver_enums;

namespace {
// Larger than the L2 of any current GPU (H100: 50 MiB, B200: 126 MiB).
constexpr size_t kFlushBytes = size_t(256) << 20;
// Bounds on the benchmark's run counts: a kernel too short for the events to
// resolve would otherwise ask for an unbounded number of runs.
constexpr double kMinEstimateMs = 1e-4;
constexpr long kMaxRuns = 100000;

// Events that are destroyed together.
class EventPool {
public:
  explicit EventPool(Driver &owner) : driver(owner) {}
  EventPool(const EventPool &) = delete;
  EventPool &operator=(const EventPool &) = delete;
  ~EventPool() {
    for (CUevent event : events)
      driver.getApi().cuEventDestroy(event);
  }

  bool create(size_t count, std::string &error) {
    events.reserve(events.size() + count);
    for (size_t i = 0; i < count; ++i) {
      CUevent event = nullptr;
      if (!driver.check(driver.getApi().cuEventCreate(&event, CU_EVENT_DEFAULT),
                        "cuEventCreate", error))
        return false;
      events.push_back(event);
    }
    return true;
  }

  // Records event `i` on the default stream.
  bool record(size_t i, std::string &error) {
    return driver.check(driver.getApi().cuEventRecord(events[i], nullptr),
                        "cuEventRecord", error);
  }

  bool elapsed(size_t start, size_t end, float &ms, std::string &error) {
    return driver.check(
        driver.getApi().cuEventElapsedTime(&ms, events[start], events[end]),
        "cuEventElapsedTime", error);
  }

  bool synchronize(size_t i, std::string &error) {
    return driver.check(driver.getApi().cuEventSynchronize(events[i]),
                        "cuEventSynchronize", error);
  }

private:
  Driver &driver;
  std::vector<CUevent> events;
};
} // namespace

bool Driver::elapsedMs(const std::function<bool(std::string &)> &body,
                       float &ms, std::string &error) {
  ms = 0;
  EventPool events(*this);
  return events.create(2, error) && events.record(0, error) && body(error) &&
         events.record(1, error) && events.synchronize(1, error) &&
         events.elapsed(0, 1, ms, error);
}

//===----------------------------------------------------------------------===//
// Benchmarking
//===----------------------------------------------------------------------===//

bool rt::benchmarkMedian(Driver &driver,
                         const std::function<bool(std::string &)> &launchOnce,
                         int warmupMs, int repMs, bool flushL2,
                         std::vector<float> &timesMs, std::string &error) {
  timesMs.clear();
  if (!driver.synchronize(error))
    return false;
  DeviceBuffer scratch;
  if (flushL2 && !scratch.allocate(driver, kFlushBytes, error))
    return false;
  // Overwriting more than the L2 holds evicts whatever the last run left.
  auto flush = [&](std::string &err) {
    return !flushL2 || driver.memsetD32(scratch.ptr(), 0,
                                        kFlushBytes / sizeof(unsigned), err);
  };

  // As in do_bench, the estimate includes the flush: it sizes the run
  // counts to the wall time that is spent.
  float estimateMs = 0;
  auto fiveRuns = [&](std::string &err) {
    for (int i = 0; i < 5; ++i)
      if (!flush(err) || !launchOnce(err))
        return false;
    return true;
  };
  if (!driver.elapsedMs(fiveRuns, estimateMs, error))
    return false;
  double perRunMs = std::max(double(estimateMs) / 5, kMinEstimateMs);
  auto runsFor = [&](int ms) {
    return long(std::clamp(std::floor(ms / perRunMs), 1.0, double(kMaxRuns)));
  };
  long warmupRuns = runsFor(warmupMs);
  long repRuns = runsFor(repMs);

  // All events are made before the timed loop so that creating them does
  // not open gaps between launches.
  EventPool events(driver);
  if (!events.create(2 * size_t(repRuns), error))
    return false;
  for (long i = 0; i < warmupRuns; ++i)
    if (!launchOnce(error))
      return false;
  for (long i = 0; i < repRuns; ++i)
    if (!flush(error) || !events.record(2 * i, error) || !launchOnce(error) ||
        !events.record(2 * i + 1, error))
      return false;
  if (!driver.synchronize(error))
    return false;

  timesMs.resize(repRuns);
  for (long i = 0; i < repRuns; ++i)
    if (!events.elapsed(2 * i, 2 * i + 1, timesMs[i], error)) {
      timesMs.clear();
      return false;
    }
  return true;
}

bool rt::measureCopyBandwidth(Driver &driver, size_t bytes, int warmupMs,
                              int repMs, double &gbPerS, std::string &error) {
  gbPerS = 0;
  DeviceBuffer source, destination;
  if (!source.allocate(driver, bytes, error) ||
      !destination.allocate(driver, bytes, error) ||
      !driver.memsetD8(source.ptr(), 0x5a, bytes, error))
    return false;
  auto copy = [&](std::string &err) {
    return driver.copyDeviceToDevice(destination.ptr(), source.ptr(), bytes,
                                     err);
  };
  // The buffers are far larger than the L2, so no flush is needed.
  std::vector<float> times;
  if (!benchmarkMedian(driver, copy, warmupMs, repMs, /*flushL2=*/false, times,
                       error))
    return false;
  double ms = quantile(times, 0.5);
  if (!(ms > 0)) {
    error = "the copy-bandwidth measurement took no measurable time";
    return false;
  }
  gbPerS = 2.0 * double(bytes) / ms * 1e-6;
  return true;
}
