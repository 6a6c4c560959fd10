// Exceptions raised by the core. The PostgreSQL layer maps each kind to a SQLSTATE at its one boundary.
#pragma once

#include <stdexcept>
#include <string>

namespace anon {

enum class ErrorKind {
    invalid_parameter,       // a caller's argument is wrong: ERRCODE_INVALID_PARAMETER_VALUE
    undefined_object,        // a named taxonomy, column or release does not exist: ERRCODE_UNDEFINED_OBJECT
    insufficient_privilege,  // the caller lacks a role's privileges: ERRCODE_INSUFFICIENT_PRIVILEGE
    data_exception,          // the data cannot be processed as asked (value missing from a taxonomy, NULLs)
    not_satisfiable,         // no release can satisfy the model: ERRCODE_DATA_EXCEPTION with a reason
    resource_limit,          // the job exceeds anon.memory_limit: ERRCODE_PROGRAM_LIMIT_EXCEEDED
    cancelled,               // the server asked the job to stop (query cancel, statement_timeout)
    dependent_objects,       // an object is still in use: ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST
    changed_underneath,  // what a release was computed with changed under it: ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE
    disclosure,  // publishing would single people out across versions or releases (docs/republication.md): ZA001
    internal     // a bug: ERRCODE_INTERNAL_ERROR
};

// An error with a kind, a message, and optional detail and hint lines for ereport.
class Error : public std::runtime_error {
public:
    Error(ErrorKind kind, const std::string& message, std::string detail = {}, std::string hint = {})
        : std::runtime_error(message), kind_(kind), detail_(std::move(detail)), hint_(std::move(hint)) {}
    ErrorKind kind() const { return kind_; }
    const std::string& detail() const { return detail_; }
    const std::string& hint() const { return hint_; }

private:
    ErrorKind kind_;
    std::string detail_;
    std::string hint_;
};

// What an error message says was found: `found` whole up to 240 bytes; beyond, its first 200 bytes (cut at a UTF-8
// character's start) and how long it was, so that a huge argument (a 100 kB name, a long array) does not come back
// whole in the message and the server log.
std::string abbreviated_found(const std::string& found);

// Raises an invalid-parameter error that names the argument, what was expected and what was found (abbreviated).
[[noreturn]] inline void bad_argument(const std::string& argument, const std::string& expected,
                                      const std::string& found) {
    throw Error(ErrorKind::invalid_parameter,
                "invalid " + argument + ": expected " + expected + ", found " + abbreviated_found(found));
}

}  // namespace anon
