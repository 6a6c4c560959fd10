// A GoogleTest fixture over the Adult extract (tests/common/adult_data.hpp): the data over the columns that
// `Columns` names, loaded once per suite from $ANON_DATA_DIR, else data/adult relative to the working directory
// (make unit runs from the repository root). A suite derives from AdultTest<Columns> and reads data_.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "adult_data.hpp"

namespace anon::test {

// The seven QIs of adult_qis() with sensitive occupation (the benchmarks' columns).
struct OccupationOverSevenQis {
    static std::vector<std::string> qis() { return testing::adult_qis(); }
    static std::vector<std::string> sensitive() { return {"occupation"}; }
};

// The seven QIs of adult_qis() with sensitive education (the minimality attack's columns).
struct EducationOverSevenQis {
    static std::vector<std::string> qis() { return testing::adult_qis(); }
    static std::vector<std::string> sensitive() { return {"education"}; }
};

template <class Columns>
class AdultTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        const char* env = std::getenv("ANON_DATA_DIR");
        dir_ = env && *env ? env : "data/adult";
        try {
            data_ =
                std::make_unique<testing::AdultData>(testing::load_adult(dir_, Columns::qis(), Columns::sensitive()));
        } catch (const std::exception& e) {
            load_error_ = std::string(e.what()) + " (set ANON_DATA_DIR to the data/adult directory)";
        }
    }
    static void TearDownTestSuite() { data_.reset(); }
    void SetUp() override { ASSERT_TRUE(data_) << load_error_; }

    static inline std::unique_ptr<testing::AdultData> data_;
    static inline std::string load_error_;
    static inline std::string dir_;
};

}  // namespace anon::test
