// A problem found in user input: where (JSON path) and what is allowed.
#pragma once
#include <string>
#include <vector>

namespace sizer {

struct Issue {
  std::string path;     // e.g. "training.mfu[1]"; "" for the document as a whole
  std::string message;  // e.g. "must be a number in (0, 1]; got \"high\""
};

// "path: message" lines, one per issue.
std::string format_issues(const std::vector<Issue>& issues);

}  // namespace sizer
