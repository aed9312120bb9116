//===- Ptxas.cpp - assembling PTX to a cubin with ptxas -------------------===//

#include "Ptxas.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace tile::aot;

namespace {
bool isExecutable(const std::string &path) {
  return !path.empty() && access(path.c_str(), X_OK) == 0;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A fresh file in $TMPDIR (else /tmp) named PREFIX.XXXXXX.SUFFIX.
std::string makeTemporary(const char *suffix) {
  const char *dir = std::getenv("TMPDIR");
  std::string path =
      std::string(dir && *dir ? dir : "/tmp") + "/tile-compile.XXXXXX" + suffix;
  std::vector<char> name(path.begin(), path.end());
  name.push_back('\0');
  int fd = mkstemps(name.data(), int(std::strlen(suffix)));
  if (fd < 0)
    return "";
  close(fd);
  return name.data();
}
} // namespace

std::string tile::aot::findPtxas(const std::string &requested) {
  if (!requested.empty())
    return isExecutable(requested) ? requested : "";
  if (const char *path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':'))
      if (!dir.empty() && isExecutable(dir + "/ptxas"))
        return dir + "/ptxas";
  }
  return isExecutable("/usr/local/cuda/bin/ptxas") ? "/usr/local/cuda/bin/ptxas"
                                                   : "";
}

int tile::aot::getComputeCapability(const std::string &target) {
  if (target.size() < 5 || target.compare(0, 3, "sm_") != 0)
    return 0;
  std::string digits = target.substr(3);
  if (!digits.empty() && digits.back() == 'a')
    digits.pop_back();
  if (digits.empty() || digits.size() > 3 ||
      digits.find_first_not_of("0123456789") != std::string::npos)
    return 0;
  return std::atoi(digits.c_str());
}

bool tile::aot::assemble(const std::string &ptxas, const std::string &ptx,
                         const std::string &target, std::string &cubin,
                         std::string &error) {
  std::string input = makeTemporary(".ptx");
  std::string output = makeTemporary(".cubin");
  std::string log = makeTemporary(".log");
  auto cleanUp = [&] {
    for (const std::string &path : {input, output, log})
      if (!path.empty())
        std::remove(path.c_str());
  };
  if (input.empty() || output.empty() || log.empty()) {
    cleanUp();
    error =
        std::string("cannot create a temporary file: ") + std::strerror(errno);
    return false;
  }
  {
    std::ofstream out(input, std::ios::binary);
    out << ptx;
  }
  std::string arch = "-arch=" + target;
  pid_t child = fork();
  if (child == 0) {
    // ptxas's messages go to the log, which the error quotes.
    if (!freopen(log.c_str(), "w", stdout) ||
        !freopen(log.c_str(), "a", stderr))
      _exit(127);
    execl(ptxas.c_str(), ptxas.c_str(), arch.c_str(), input.c_str(), "-o",
          output.c_str(), (char *)nullptr);
    _exit(127);
  }
  int status = 0;
  bool ran = child > 0 && waitpid(child, &status, 0) == child;
  if (!ran || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string message = readFile(log);
    while (!message.empty() && message.back() == '\n')
      message.pop_back();
    error = ptxas + " " + arch + " failed" +
            (message.empty() ? std::string() : ":\n" + message);
    cleanUp();
    return false;
  }
  cubin = readFile(output);
  cleanUp();
  if (cubin.empty()) {
    error = ptxas + " " + arch + " wrote no cubin";
    return false;
  }
  return true;
}
