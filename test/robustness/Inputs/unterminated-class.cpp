#include <torch/nn/utils/clip_grad.h>
#include <filesystem>
class LatestJsonWriter {
    explicit LatestJsonWriter(std::filesystem::path path,
                              std::chrono::milliseconds minimum_interval = std::chrono::milliseconds(250))
        : path_(std::move(path)),
          worker_([this] { run(); }) {}
    ~LatestJsonWriter() {
        while (true) {
            if (stopping_ && !pending_.has_value()) {
            }
        }
        if (std::uncaught_exceptions() > uncaught_on_entry_) {
            try {
                if (error_ == nullptr) {
                }
            }
        }
    }
    std::chrono::milliseconds minimum_interval_;
