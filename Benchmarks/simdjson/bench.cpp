// simdjson On-Demand over an NDJSON journal: every member of every line read into typed values
// (integers, numbers, booleans, strings unescaped), as a decoder of the journal must. Prints events/s
// per core by the thread's CPU time, the median of the runs.
#include "simdjson.h"
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>
using namespace simdjson;
static double cpu() { timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static double wall() { timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
int main(int argc, char** argv) {
  padded_string json = padded_string::load(argv[1]);
  int runs = argc > 2 ? atoi(argv[2]) : 5;
  std::vector<double> cpus, walls;
  size_t events = 0; uint64_t check = 0;
  for (int r = 0; r < runs; r++) {
    ondemand::parser parser;
    double c0 = cpu(), w0 = wall();
    events = 0; check = 0;
    ondemand::document_stream docs = parser.iterate_many(json, 1 << 20);
    for (auto doc : docs) {
      ondemand::object obj = doc.get_object();
      for (auto field : obj) {
        std::string_view key = field.unescaped_key();
        ondemand::value v = field.value();
        switch (v.type()) {
          case ondemand::json_type::number: {
            if (key == "distance" || key == "velocity") { double d = v.get_double(); check += (uint64_t)d; }
            else { int64_t i = v.get_int64(); check += i; }
            break;
          }
          case ondemand::json_type::string: { std::string_view s = v.get_string(); check += s.size(); break; }
          case ondemand::json_type::boolean: { bool b = v.get_bool(); check += b; break; }
          default: { std::string_view raw = v.raw_json(); check += raw.size(); }
        }
        check += key.size();
      }
      events++;
    }
    cpus.push_back(cpu() - c0); walls.push_back(wall() - w0);
  }
  std::sort(cpus.begin(), cpus.end()); std::sort(walls.begin(), walls.end());
  double c = cpus[runs / 2], w = walls[runs / 2];
  printf("%s: %zu events, simdjson %s on-demand: %.3f s CPU (%.2fM events/s per core), %.3f s wall; checksum %llu\n",
         argv[1], events, SIMDJSON_VERSION, c, events / c / 1e6, w, (unsigned long long)check);
}
