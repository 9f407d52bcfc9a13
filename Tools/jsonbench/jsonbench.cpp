// jsonbench: simdjson's DOM parse followed by the walk of decant-bench's json.walk rows, timed on thread CPU time,
// so that decant-bench can show Decant against simdjson in the same run. A measuring tool, not part of Decant.
//
// Usage: jsonbench [-t SECONDS] FILE
// Prints one tab-separated line: file, bytes, runs, median CPU milliseconds per parse and walk, values visited,
// string bytes read (keys and strings), the two numbers decant-bench checks its own walk against.
#include <simdjson.h>
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

namespace {

double thread_cpu_seconds() {
    timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) + double(now.tv_nsec) * 1e-9;
}

struct WalkResult {
    long values = 0;
    long string_bytes = 0;
    int64_t numbers = 0;
};

// Every value visited as an application reads it: integers as int64 (or uint64), other numbers as double, strings
// and keys as string views (simdjson validated their UTF-8 during the parse).
void walk(simdjson::dom::element root, std::vector<simdjson::dom::element> &stack, WalkResult &result) {
    stack.clear();
    stack.push_back(root);
    while (!stack.empty()) {
        simdjson::dom::element value = stack.back();
        stack.pop_back();
        result.values += 1;
        switch (value.type()) {
        case simdjson::dom::element_type::OBJECT:
            for (simdjson::dom::key_value_pair field : simdjson::dom::object(value)) {
                result.string_bytes += long(field.key.size());
                stack.push_back(field.value);
            }
            break;
        case simdjson::dom::element_type::ARRAY:
            for (simdjson::dom::element element : simdjson::dom::array(value)) stack.push_back(element);
            break;
        case simdjson::dom::element_type::STRING:
            result.string_bytes += long(std::string_view(value).size());
            break;
        case simdjson::dom::element_type::INT64:
            result.numbers += int64_t(value);
            break;
        case simdjson::dom::element_type::UINT64:
            result.numbers += int64_t(uint64_t(value));
            break;
        case simdjson::dom::element_type::DOUBLE: {
            double number = double(value);
            int64_t bits;
            std::memcpy(&bits, &number, sizeof bits);
            result.numbers += bits;
            break;
        }
        default:
            break;
        }
    }
}

}  // namespace

int main(int argc, char **argv) {
    double seconds = 1.0;
    int argument = 1;
    if (argc > 2 && std::strcmp(argv[1], "-t") == 0) {
        seconds = std::atof(argv[2]);
        argument = 3;
    }
    if (argument >= argc) {
        std::fprintf(stderr, "usage: jsonbench [-t SECONDS] FILE\n");
        return 2;
    }
    const char *path = argv[argument];
    simdjson::padded_string json;
    if (simdjson::padded_string::load(path).get(json)) {
        std::fprintf(stderr, "jsonbench: cannot read %s\n", path);
        return 1;
    }
    simdjson::dom::parser parser;
    std::vector<simdjson::dom::element> stack;
    std::vector<double> times;
    WalkResult result;
    double total = 0;
    // One untimed run to size the parser, then runs until `seconds` of CPU time (at least 5).
    for (int run = -1; run < 5 || total < seconds; run++) {
        double start = thread_cpu_seconds();
        simdjson::dom::element root;
        if (parser.parse(json).get(root)) {
            std::fprintf(stderr, "jsonbench: simdjson rejects %s\n", path);
            return 1;
        }
        result = WalkResult();
        walk(root, stack, result);
        double elapsed = thread_cpu_seconds() - start;
        if (run >= 0) {
            times.push_back(elapsed);
            total += elapsed;
        }
    }
    std::sort(times.begin(), times.end());
    double median = times[times.size() / 2];
    std::printf(
        "%s\t%zu\t%zu\t%.6f\t%ld\t%ld\t%lld\n", path, json.size(), times.size(), median * 1000, result.values,
        result.string_bytes, (long long)result.numbers);
    return 0;
}
