import Foundation

/// How large the tests that are large for their own sake are run. Under AddressSanitizer or
/// ThreadSanitizer every step costs many times more, and what they look for (a race, a bad
/// access) shows at any size: those lanes run such tests smaller, and the plain lane at full
/// size checks that size's claim.
enum TestScale {
    /// Whether this process runs under AddressSanitizer or ThreadSanitizer, whose shadow memory
    /// and quarantine also make every program several times larger.
    static let underSanitizer: Bool = {
        let program = dlopen(nil, RTLD_NOW)
        return dlsym(program, "__asan_init") != nil || dlsym(program, "__tsan_init") != nil
    }()

    /// `full`, or `sanitized` under a sanitizer.
    static func count(_ full: Int, sanitized: Int) -> Int {
        underSanitizer ? sanitized : full
    }
}
